/**
 * A start from the stored session (a reload, an offline start): the replica is opened and shown
 * first; the replication's code is loaded and started only after the first screen (issue 13).
 * Sign-in, sign-out and a 401 while it waits are each tested, and a data key that arrives late.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { closeReplica, getReplication, identityOf, openReplica, openReplicaForAccount, stopReplication, type ReplicaOptions } from '@/data/replica/lifecycle';
import { replicaStore } from '@/data/replica/replica-store';
import { isFirstPullPending, replicationStatus } from '@/data/replication/sync-status';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

let sync: SyncTestServer;
let account: Account;
const key = randomKey();
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key };

beforeAll(async () => {
  sync = await startSyncServer();
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
afterEach(async () => {
  await closeReplica();
});

/** A replica that was filled at an earlier sign-in, closed, and is now opened from the stored session. */
async function storedSite(): Promise<string> {
  const site = uniqueName('site');
  await openReplicaForAccount(account, site, { ...replica, replicate: false });
  await closeReplica();
  return site;
}

/** A first screen whose end the test decides. */
function heldFirstScreen() {
  const held = { go: null as (() => void) | null, cancel: vi.fn() };
  const startWhen = (go: () => void) => {
    held.go = go;
    return held.cancel;
  };
  return { held, options: { ...replica, replicate: true, replication: { startWhen, liveTriggers: false, retryTime: 200 } } satisfies ReplicaOptions };
}

describe('a warm start', () => {
  it('shows the replica before any replication is loaded; the pulls follow the first screen', async () => {
    const site = await storedSite();
    const { held, options } = heldFirstScreen();
    const before = sync.requests.length;
    const open = await openReplica(identityOf(account, site), null, options);

    // Readable, nothing started, and every collection says "loading" rather than "nothing here".
    expect(replicaStore.get()?.db).toBe(open.db);
    expect(getReplication()).toBeNull();
    expect(replicationStatus.get().starting).toBe(true);
    expect(isFirstPullPending(replicationStatus.get(), 'feedback')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sync.requests.length).toBe(before);

    held.go!();
    await eventually(() => getReplication() !== null, 10_000, 'the replication');
    await getReplication()!.awaitInitial();
    expect(replicationStatus.get().starting).toBe(false);
    expect(await open.db.calendar.count().exec()).toBeGreaterThan(0);
    expect(sync.requests.length).toBeGreaterThan(before);
  });

  it('a sign-out while it waits cancels it: nothing starts afterwards', async () => {
    const site = await storedSite();
    const { held, options } = heldFirstScreen();
    await openReplica(identityOf(account, site), null, options);
    await closeReplica();
    expect(held.cancel).toHaveBeenCalledTimes(1);
    expect(replicationStatus.get().starting).toBe(false);

    const before = sync.requests.length;
    held.go!(); // a first screen that ends anyway
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(getReplication()).toBeNull();
    expect(sync.requests.length).toBe(before);
  });

  it('a 401 while it waits cancels it, and the replica stays readable', async () => {
    const site = await storedSite();
    const { held, options } = heldFirstScreen();
    const open = await openReplica(identityOf(account, site), null, options);
    await stopReplication();
    expect(held.cancel).toHaveBeenCalledTimes(1);
    held.go!();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(getReplication()).toBeNull();
    expect(replicaStore.get()?.db).toBe(open.db);
  });

  it('the account the server sends back meanwhile stores it, and the pulls still wait for the first screen', async () => {
    const site = await storedSite();
    const { held, options } = heldFirstScreen();
    const stored = await openReplica(identityOf(account, site), null, options);
    const before = sync.requests.length;
    const refreshed = { ...account, user: { ...account.user, first_name: 'Jamie (from the server)' } };
    const open = await openReplicaForAccount(refreshed, site, { ...replica, replicate: true, replication: { liveTriggers: false, retryTime: 200 } });
    expect((await open.db.resident.findOne('account').exec())?.get('account')).toMatchObject({ user: { first_name: 'Jamie (from the server)' } });
    // The same person, homes and flags: the same replica object, so no screen subscribes again (and
    // shows "Loading…" for a moment where it showed the entry).
    expect(open).toBe(stored);
    expect(replicaStore.get()).toBe(stored);
    expect(held.cancel).not.toHaveBeenCalled();
    expect(getReplication()).toBeNull();
    expect(sync.requests.length).toBe(before);

    held.go!();
    await eventually(() => getReplication() !== null, 10_000, 'the replication');
    const running = getReplication()!;
    await running.awaitInitial();
    expect(replicationStatus.get().starting).toBe(false);
  });

  it('another person at the same address while it waits: their replica opens and pulls at once, the wait is dropped', async () => {
    const site = await storedSite();
    const { held, options } = heldFirstScreen();
    const first = await openReplica(identityOf(account, site), null, options);
    const other = await openReplicaForAccount(account, uniqueName('site'), { ...replica, replicate: true, replication: { liveTriggers: false, retryTime: 200 } });
    expect(other.name).not.toBe(first.name);
    expect(held.cancel).toHaveBeenCalledTimes(1);
    const running = getReplication();
    expect(running).not.toBeNull();
    await running!.awaitInitial();
    held.go!();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(getReplication()).toBe(running);
  });
});

describe('the data key', () => {
  it('may arrive while the replica opens: what was stored reads back', async () => {
    const site = await storedSite();
    let release: () => void = () => undefined;
    const late = new Promise<typeof key>((resolve) => {
      release = () => resolve(key);
    });
    const opening = openReplica(identityOf(account, site), null, { ...replica, key: late, replicate: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const open = await opening;
    const stored = await open.db.resident.findOne('account').exec();
    expect(stored?.get('account')).toMatchObject({ user: { id: account.user.id } });
  });

  it('a key that cannot be read fails the opening and leaves nothing open; the next opening works', async () => {
    const site = await storedSite();
    const unreadable = new Error('the key vault cannot be read');
    const failing = Promise.reject(unreadable);
    failing.catch(() => undefined); // as the vault's own promise: rejected only once asked for
    await expect(openReplica(identityOf(account, site), null, { ...replica, key: failing, replicate: false })).rejects.toBe(unreadable);
    expect(replicaStore.get()).toBeNull();
    const open = await openReplica(identityOf(account, site), null, { ...replica, replicate: false });
    expect(await open.db.resident.count().exec()).toBe(1);
  });
});
