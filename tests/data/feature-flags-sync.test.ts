import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { paths } from '@/contract/paths';
import type { Account } from '@/contract/users';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { ACCOUNT_DOC_ID } from '@/data/replica/types';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import { followFlags } from '@/data/replication/follow-flags';
import { clearSession, featureFlagsOf, getAccountSnapshot, getSessionStub, SESSION_KEY, setAccount, subscribeSession } from '@/data/session-store';
import { getAccount } from '@/api/users/get-account';
import type { Client } from '../server/support/client';
import { demoIds, signedIn } from '../server/support/session';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

/**
 * Staff switch a young person's journal off or on while their app is open (docs/decisions.md
 * "Staff switch a young person's features"): the record's next pull reaches the account the
 * guards, the navigation and the dashboard read (src/data/replication/follow-flags.ts), the
 * stub and the replica's copy of the account, so a start offline shows it too; a copy of the record
 * older than the server's account never switches the flags back.
 */
let sync: SyncTestServer;
let ali: Client;
let jamie: string;
let handle: ReplicationHandle | null = null;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
const stored = new Map<string, string>();

beforeAll(async () => {
  // The device's localStorage: the session's stub is kept there.
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  });
  sync = await startSyncServer();
  // Staff first: until a young person signs in, the sync server adds no cookies of theirs to a request.
  ali = await signedIn(sync.server, 'carer.ali');
  jamie = (await demoIds(sync.server)).resident['demo/jamie']!;
});
afterEach(async () => {
  await handle?.stop();
  handle = null;
  await closeReplica();
  clearSession();
});
afterAll(async () => {
  await sync?.close();
  vi.unstubAllGlobals();
});

const switchJournal = async (on: 0 | 1) => expect((await ali.put(`/api${paths.residentFeatures.build(jamie)}`, { journal_enabled: on })).status).toBe(200);
// Each test starts with Jamie's journal on, as the seed has it (a test that failed may have left it off).
beforeEach(() => switchJournal(1));
const journalShown = () => featureFlagsOf(getAccountSnapshot()).journal_enabled === true;
async function keptAccount(open: OpenReplica): Promise<Account | undefined> {
  return (await open.db.resident.findOne(ACCOUNT_DOC_ID).exec())?.get('account') as Account | undefined;
}
async function signInJamie(): Promise<{ account: Account; open: OpenReplica }> {
  const account = await sync.signIn('jamie');
  setAccount(account);
  const open = await openReplicaForAccount(account, uniqueName('site'), replica);
  return { account, open };
}

it("the account's flags follow staff switching the journal off and on again, in memory, in the stub and in the replica", async () => {
  const { open } = await signInJamie();
  handle = startReplication(open, { liveTriggers: false, retryTime: 200 });
  await handle.awaitInitial();
  expect(journalShown()).toBe(true);
  const shown = getAccountSnapshot();

  await switchJournal(0);
  // What the change stream would ask for: the young person's record changed.
  handle.reSync(['resident']);
  await eventually(() => !journalShown(), 20_000, 'the journal switched off on the device');
  expect(getAccountSnapshot()?.user.first_name).toBe(shown?.user.first_name);
  expect(getAccountSnapshot()?.user.resident?.voice_enabled).toBe(shown?.user.resident?.voice_enabled);
  expect(JSON.parse(stored.get(SESSION_KEY) ?? 'null')?.flags?.journal_enabled).toBe(0);
  await eventually(async () => (await keptAccount(open))?.user.resident?.journal_enabled === 0, 10_000, "the replica's account without the journal");
  expect((await keptAccount(open))?.user.first_name).toBe(shown?.user.first_name);

  await switchJournal(1);
  handle.reSync(['resident']);
  await eventually(journalShown, 20_000, 'the journal switched on again on the device');
  await eventually(async () => (await keptAccount(open))?.user.resident?.journal_enabled === 1, 10_000, "the replica's account with the journal");

  // Nothing new in the record: the account stays the same object (no screen re-renders).
  const now = getAccountSnapshot();
  handle.reSync(['resident']);
  await handle.awaitInSync();
  expect(getAccountSnapshot()).toBe(now);
});

it("a copy of the record older than the server's account does not switch the flags back", async () => {
  const { open } = await signInJamie();
  handle = startReplication(open, { liveTriggers: false, retryTime: 200 });
  await handle.awaitInitial();
  await handle.stop();
  handle = null;
  expect(journalShown()).toBe(true);
  const before = (await open.db.resident.findOne(jamie).exec())?.get('updated_at') as string;

  // Switched off while the replica was not pulling; the account the server sends at the next start says so.
  await switchJournal(0);
  const fresh = await getAccount();
  if (!fresh.ok) throw new Error(`GET /v1/auth/user answered ${fresh.status}`);
  setAccount(fresh.data);
  expect(journalShown()).toBe(false);

  const seen: boolean[] = [];
  const stopWatching = subscribeSession(() => seen.push(journalShown()));
  const stopFollowing = followFlags(open);
  try {
    // The replica still holds the copy from before the switch: it only marks how new the account is.
    await eventually(() => getSessionStub()?.flags_as_of === before, 10_000, 'the older copy compared');
    expect(journalShown()).toBe(false);

    handle = startReplication(open, { liveTriggers: false, retryTime: 200 });
    await handle.awaitInSync();
    await eventually(() => (getSessionStub()?.flags_as_of ?? '') > before, 20_000, 'the newer copy compared');
    expect(journalShown()).toBe(false);
    expect(seen).not.toContain(true);
  } finally {
    stopFollowing();
    stopWatching();
  }
});

/**
 * Switches the journal off while the app runs, then starts the app again with no network (new
 * modules over the same localStorage and replica). `lostWrite`: the page closed after the stub was
 * written and before the replica's copy of the account was.
 */
async function restartOfflineAfterSwitchingOff(lostWrite: boolean): Promise<{ account: Account; restored: Account | null; provisional: Account | null }> {
  const { account, open } = await signInJamie();
  handle = startReplication(open, { liveTriggers: false, retryTime: 200 });
  await handle.awaitInitial();
  await switchJournal(0);
  handle.reSync(['resident']);
  await eventually(async () => !journalShown() && (await keptAccount(open))?.user.resident?.journal_enabled === 0, 20_000, 'the journal switched off');
  await handle.stop();
  handle = null;
  if (lostWrite) {
    const doc = await open.db.resident.findOne(ACCOUNT_DOC_ID).exec();
    await doc?.incrementalModify((kept) => ({ ...kept, account: account }));
  }
  const identity = open.identity;
  await closeReplica();

  vi.resetModules();
  const session = await import('@/data/session-store');
  const lifecycle = await import('@/data/replica/lifecycle');
  try {
    const provisional = session.getAccountSnapshot();
    await lifecycle.openReplica(identity, null, replica);
    return { account, provisional, restored: session.getAccountSnapshot() };
  } finally {
    await lifecycle.closeReplica();
  }
}

it('a start offline shows the flags the record brought: the stub and the replica keep them', async () => {
  const { account, provisional, restored } = await restartOfflineAfterSwitchingOff(false);
  expect(featureFlagsOf(provisional).journal_enabled).toBeUndefined();
  expect(restored?.user.first_name).toBe(account.user.first_name);
  expect(featureFlagsOf(restored).journal_enabled).toBeUndefined();
  expect(featureFlagsOf(restored).voice_enabled).toBe(featureFlagsOf(account).voice_enabled);
});

it("a page closed before the replica's copy of the account was written: the stub's flags win at the next start", async () => {
  const { account, restored } = await restartOfflineAfterSwitchingOff(true);
  expect(restored?.user.first_name).toBe(account.user.first_name);
  expect(featureFlagsOf(restored).journal_enabled).toBeUndefined();
});
