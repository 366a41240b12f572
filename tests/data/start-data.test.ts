/**
 * The composition root (src/app/start-data.ts): importing the data layer starts nothing; startData
 * wires the outcome sink, the replica following the session and the logout steps; stop() undoes it.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { sessionExpired } from '@/api/events';
import { logoutSteps, startData, whenOutboxWired } from '@/app/start-data';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import { getOutboxConfig } from '@/data/outbox/outbox';
import { createOutcomeSink, unwiredSink } from '@/data/outbox/outcomes';
import { followSession } from '@/data/replica/follow-session';
import { closeReplica, type ReplicaOptions } from '@/data/replica/lifecycle';
import { getReplica, replicaStore, whenReplicaOpen } from '@/data/replica/replica-store';
import { clearSession, getAccountSnapshot, setAccount } from '@/data/session-store';
import { readDraft, saveDraft } from '@/data/drafts';
import { currentOwner, ownerIdFor, rememberOwner } from '@/data/owner';
import { clearLocalSession, type WipeStep } from '@/data/sign-out';
import { forgetActiveOwnerStep } from '@/data/wipe-steps';
import { memoryStorage, randomKey, testAccount, uniqueName } from './fixtures';

const account = testAccount as unknown as Account;
let stop: () => void = () => undefined;

afterEach(async () => {
  stop();
  stop = () => undefined;
  clearSession();
  await closeReplica();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Replica options of their own (a fresh fake IndexedDB), so nothing is shared with other tests. */
function replicaOptions(): ReplicaOptions & { indexedDB: IDBFactory } {
  return { indexedDB: new IDBFactory(), IDBKeyRange, multiInstance: false, key: randomKey(), replicate: false };
}

const until = (condition: () => boolean, timeout = 10_000) => vi.waitFor(() => expect(condition()).toBe(true), { timeout, interval: 20 });

describe('startData', () => {
  it('wires the replica sink into the outbox once someone signs in, and stop() puts the previous one back', async () => {
    expect(getOutboxConfig().sink).toBe(unwiredSink);
    stop = startData({ replica: false, outbox: false, shell: false });
    // Signed out, the outbox is nobody's: its side is not even loaded (issue 13, the login screen's JS).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getOutboxConfig().sink).toBe(unwiredSink);
    setAccount(account);
    await whenOutboxWired();
    expect(getOutboxConfig().sink).toBe(replicaOutcomeSink);
    // Once per page: a second call gives the same stop and wires nothing twice.
    expect(startData()).toBe(stop);
    stop();
    expect(getOutboxConfig().sink).toBe(unwiredSink);
  });

  it('at a start with a stored session the sink is wired at once, before the replica opens', async () => {
    setAccount(account); // the stored session this start finds
    const options = replicaOptions();
    let wiredWhenOpened: boolean | null = null;
    const seen = replicaStore.subscribe(() => {
      if (getReplica() && wiredWhenOpened === null) wiredWhenOpened = getOutboxConfig().sink === replicaOutcomeSink;
    });
    try {
      stop = startData({ replica: options, outbox: false, shell: false, refreshAccount: false });
      await whenReplicaOpen();
      expect(wiredWhenOpened).toBe(true);
    } finally {
      seen();
    }
  });

  it('a 401 or 419 clears the signed-in state only while started', () => {
    stop = startData({ replica: false, outbox: false, shell: false });
    setAccount(account);
    sessionExpired.emit({ status: 419 });
    expect(getAccountSnapshot()).toBeNull();
    stop();
    setAccount(account);
    sessionExpired.emit({ status: 401 });
    expect(getAccountSnapshot()).not.toBeNull();
  });

  it('the replica follows the session: opened at sign-in, closed at sign-out; not after stop()', async () => {
    const options = replicaOptions();
    stop = startData({ replica: options, outbox: false, shell: false });
    setAccount(account);
    const open = await whenReplicaOpen();
    expect(open.identity.userId).toBe(account.user.id);
    expect((await open.db.resident.findOne('account').exec())?.get('account')).toMatchObject({ user: { id: account.user.id } });
    clearSession();
    await until(() => getReplica() === null);

    stop();
    setAccount(account);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(replicaStore.get()).toBeNull();
  });

  it('an expired session closes the replica and keeps it on the device', async () => {
    const options = replicaOptions();
    stop = startData({ replica: options, outbox: false, shell: false });
    setAccount(account);
    const { name } = await whenReplicaOpen();
    sessionExpired.emit({ status: 401 });
    await until(() => getReplica() === null);
    const names = (await options.indexedDB.databases()).map((d) => d.name ?? '');
    expect(names.some((n) => n.startsWith(`rxdb-dexie-${name}--`))).toBe(true);
  });

  it('logout runs the installed steps in order, past a failing one; stop() uninstalls them', async () => {
    const ran: string[] = [];
    const step = (name: string, fail = false): WipeStep => ({
      name,
      run: async ({ userId }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ran.push(`${name}:${userId}`);
        if (fail) throw new Error(`${name} failed`);
      },
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stop = startData({ replica: false, outbox: false, shell: false, wipeSteps: [step('a'), step('b', true), step('c')] });
    setAccount(account);
    const failed = await clearLocalSession();
    expect(ran).toEqual([`a:${account.user.id}`, `b:${account.user.id}`, `c:${account.user.id}`]);
    expect(failed).toHaveLength(1);
    expect(errors).toHaveBeenCalledWith('A sign-out wipe step failed (b)', expect.any(Error));
    expect(getAccountSnapshot()).toBeNull();

    stop();
    ran.length = 0;
    setAccount(account);
    expect(await clearLocalSession()).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('the logout steps are one list: replica, push subscription, outbox, pulled ahead, caches, data key, active owner', () => {
    expect(logoutSteps().map((s) => s.name)).toEqual(['replica', 'push subscription', 'outbox', 'pulled ahead', 'personal caches', 'data key', 'active owner']);
  });

  it('the default logout steps remove the signed-in person\'s replica', async () => {
    const options = replicaOptions();
    stop = startData({ replica: options, outbox: false, shell: false });
    setAccount({ ...account, user: { ...account.user, id: uniqueName('user') } });
    const { name } = await whenReplicaOpen();
    const errors = await clearLocalSession();
    // No outbox or caches in this process: only the replica's removal is checked here.
    expect(errors.filter((e) => String(e).includes('replica'))).toEqual([]);
    const names = (await options.indexedDB.databases()).map((d) => d.name ?? '');
    expect(names.filter((n) => n.startsWith(`rxdb-dexie-${name}--`))).toEqual([]);
    expect(getReplica()).toBeNull();
  });
});

describe('a sign-out wipe that did not finish', () => {
  it('is finished before the same person\'s replica opens again; then what they write is theirs', async () => {
    // Where the pending wipes are noted (this environment has no localStorage).
    const storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const options = replicaOptions();
    const person = { ...account, user: { ...account.user, id: uniqueName('user') } };
    // A page whose wipe did not finish: here its only step fails (a closed page never ran it).
    const interrupted: WipeStep = { name: 'replica', run: () => Promise.reject(new Error('the page went')) };
    stop = startData({ replica: options, outbox: false, shell: false, wipeSteps: [interrupted] });
    setAccount(person);
    await whenReplicaOpen();
    expect(await saveDraft('entry:journal:new', { description: 'deleted at sign-out', reaction: null })).toBe(true);
    expect(await clearLocalSession()).toHaveLength(1);
    expect(storage.getItem('hearth.pendingWipes')).toContain(person.user.id);
    await until(() => getReplica() === null);
    stop();

    // The next page: the same person signs in again and must not find what they deleted.
    stop = startData({ replica: options, outbox: false, shell: false });
    setAccount(person);
    await whenReplicaOpen();
    expect(await readDraft('entry:journal:new')).toBeNull();
    expect(storage.getItem('hearth.pendingWipes') ?? '').not.toContain(person.user.id);

    // What they write now stays through the next start.
    expect(await saveDraft('entry:journal:new', { description: 'written after', reaction: null })).toBe(true);
    stop();
    await closeReplica();
    stop = startData({ replica: options, outbox: false, shell: false });
    await whenReplicaOpen();
    expect(await readDraft('entry:journal:new')).toEqual({ description: 'written after', reaction: null });
  });
});

describe('a wipe finished at a later start', () => {
  it('forgets the active owner only if it is still the person wiped: whoever signed in since keeps theirs', async () => {
    const someoneElse = await ownerIdFor('demo', 'someone-else');
    rememberOwner(someoneElse);
    await forgetActiveOwnerStep.run({ userId: 'the-person-wiped', site: 'demo' });
    expect(currentOwner()).toBe(someoneElse);
    rememberOwner(await ownerIdFor('demo', 'the-person-wiped'));
    await forgetActiveOwnerStep.run({ userId: 'the-person-wiped', site: 'demo' });
    expect(currentOwner()).toBeNull();
  });
});

describe('followSession', () => {
  it('an opening waits for `beforeOpen` (the outbox is wired first)', async () => {
    const options = replicaOptions();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stopFollowing = followSession(options, () => gate);
    try {
      setAccount(account);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(getReplica()).toBeNull();
      release();
      await whenReplicaOpen();
    } finally {
      stopFollowing();
    }
  });

  it('a sign-out asked for while an opening waits for `beforeOpen` closes what that opening opens', async () => {
    const options = replicaOptions();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = false;
    const seen = replicaStore.subscribe(() => {
      if (getReplica()) opened = true;
    });
    const stopFollowing = followSession(options, () => gate);
    try {
      setAccount(account);
      clearSession();
      // The outbox's side takes its time to load; the close, which waits for nothing, must not pass it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      // The opening comes first, then the close: the replica ends closed.
      await until(() => opened);
      await until(() => getReplica() === null);
    } finally {
      seen();
      stopFollowing();
    }
  });
});

describe('the outcome sink', () => {
  it('a delivered write with an answer is settled; anything else sets the sync state; re-sync of all topics when none', async () => {
    const calls: string[] = [];
    const sink = createOutcomeSink({
      settleDelivered: async (local, sync, result) => void calls.push(`settle ${local.id} ${sync.state} ${result.id}`),
      setSyncState: async (local, sync) => void calls.push(`state ${local.id} ${sync.state} ${sync.message}`),
      requestResync: (topics) => void calls.push(`resync ${topics ? topics.join(',') : 'all'}`),
    });
    const local = { collection: 'journal' as const, id: 'j1' };
    await sink.setSyncState(local, { state: 'synced', message: null, outbox_id: null }, { id: 'j1', data: {} });
    await sink.setSyncState(local, { state: 'synced', message: null, outbox_id: null }, null);
    await sink.setSyncState(local, { state: 'failed', message: 'Closed', outbox_id: 'o1' }, { id: 'j1', data: {} });
    sink.requestResync(['journal']);
    sink.requestResync([]);
    expect(calls).toEqual(['settle j1 synced j1', 'state j1 synced null', 'state j1 failed Closed', 'resync journal', 'resync all']);
  });
});
