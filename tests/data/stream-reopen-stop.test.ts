import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { REOPEN_MAX_MS } from '@/api/sync/stream-reopen';
import { paths } from '@/contract/paths';
import type { Account } from '@/contract/users';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import { DrivenEventSource } from '../support/driven-event-source';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

/**
 * The change stream EventSource gave up on is opened again by the replication that opened it, and
 * only while that replication runs: stopping it (sign-out, a 401, a wipe: src/data/replica/
 * lifecycle.ts) calls off the try that was waiting (src/data/replication/controller.ts's cleanups).
 * The real controller against the real server; the browser's EventSource is driven by the test,
 * and only the timeouts made after the first pull are fake, so the waits pass when the test says.
 */
let sync: SyncTestServer;
let account: Account;
let handle: ReplicationHandle | null = null;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeAll(async () => {
  sync = await startSyncServer();
  account = await sync.signIn('jamie');
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await handle?.stop();
  handle = null;
  await closeReplica();
});
afterAll(async () => {
  await sync?.close();
});

/** The requests asked of the stream's address since the stream was given up (made at once, answered or not). */
let asked: () => string[] = () => [];

/** A replication whose stream opened, then was given up by the browser, its next try waiting. */
async function givenUpStream(): Promise<ReplicationHandle> {
  DrivenEventSource.made = [];
  vi.stubGlobal('EventSource', DrivenEventSource);
  const open = await openReplicaForAccount(account, uniqueName('site'), replica);
  const started = startReplication(open, { periodicMs: 0, retryTime: 200 });
  handle = started;
  await started.awaitInitial();
  await eventually(() => DrivenEventSource.made.length === 1, 10_000, 'the stream');
  DrivenEventSource.made[0]!.opens();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const fetches = vi.spyOn(globalThis, 'fetch');
  asked = () =>
    fetches.mock.calls
      .filter(([input]) => String(input).endsWith(`/api${paths.syncStream.build()}`))
      .map(([, init]) => init?.method ?? 'GET');
  DrivenEventSource.made[0]!.givesUp();
  return started;
}

it('while the replication runs, the stream is opened again after the wait', async () => {
  await givenUpStream();
  await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS);
  vi.useRealTimers();
  expect(asked()).toEqual(['HEAD']);
  await eventually(() => DrivenEventSource.made.length === 2, 10_000, 'a second stream');
});

it('once the replication stopped, the stream is never opened again', async () => {
  const running = await givenUpStream();
  const stopping = running.stop();
  await vi.advanceTimersByTimeAsync(1_000);
  await stopping;
  await vi.advanceTimersByTimeAsync(REOPEN_MAX_MS * 2);
  expect(asked()).toEqual([]);
  expect(DrivenEventSource.made).toHaveLength(1);
});
