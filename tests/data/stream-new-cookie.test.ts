import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { configureRetryPolicy } from '@/api/client';
import { setApiBase } from '@/api/base-address';
import { getAccount } from '@/api/users/get-account';
import type { Account } from '@/contract/users';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { JournalDoc } from '@/data/replica/types';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import { parseSetCookie, type Client } from '../server/support/client';
import { demoIds, signedIn } from '../server/support/session';
import { startTestServer, type TestServer } from '../server/support/server';
import { postForm } from '../server/support/uploads';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { SpecEventSource } from './support/spec-event-source';
import { eventually } from './support/sync-server';

/**
 * The young person changes their password with the app open (security review of stop 44): the
 * server ends the event stream the device opened with its old token, as it ends a thief's copy.
 * The device's stream comes back by itself: EventSource reconnects after the stream's `retry:`
 * with the cookie the change-password answer set, and the replication pulls everything when a
 * stream opens (src/data/replication/controller.ts), so a change made while it was down arrives.
 * The page's fetch is a browser's here: it sends and keeps the cookies of one jar.
 */
let server: TestServer;
let browser: Client;
let account: Account;
let handle: ReplicationHandle | null = null;
const original = globalThis.fetch;
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeAll(async () => {
  server = await startTestServer();
  browser = await signedIn(server, 'jamie');
  globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== server.base) return original(input, init);
    const headers = new Headers(init?.headers);
    headers.set('cookie', [...browser.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await original(url, { ...init, headers, credentials: undefined });
    for (const cookie of response.headers.getSetCookie().map(parseSetCookie)) browser.jar.set(cookie.name, cookie.value);
    return response;
  };
  setApiBase(`${server.base}/api`);
  configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });
  const me = await getAccount();
  if (!me.ok) throw new Error(`GET /v1/auth/user answered ${me.status}`);
  account = me.data;
});
afterEach(async () => {
  await handle?.stop();
  handle = null;
  await closeReplica();
  vi.unstubAllGlobals();
});
afterAll(async () => {
  globalThis.fetch = original;
  setApiBase('/api');
  await server?.close();
});

it("after a password change the device's stream reopens with the new cookie and the replica gets what changed meanwhile", async () => {
  vi.stubGlobal('EventSource', SpecEventSource);
  const open = await openReplicaForAccount(account, uniqueName('site'), replica);
  // Only the stream brings pulls here: no periodic pull, and Node has no `online` or visibility events.
  handle = startReplication(open, { periodicMs: 0, retryTime: 200 });
  await handle.awaitInitial();
  const stream = SpecEventSource.made.at(-1)!;
  await eventually(() => stream.readyState === SpecEventSource.OPEN, 10_000, 'the stream open');
  const onDevice = async (text: string) => (await open.db.journal.find().exec()).some((d) => (d.toJSON() as JournalDoc).description === text);
  const write = async (text: string) => expect((await postForm(server.base, browser, '/api/v1/projects/residents/journal/entries', [['description', text]])).status).toBe(201);

  const ids = await demoIds(server);
  const password = 'a-new-longer-password-1';
  const changed = await browser.put(`/api/v1/users/${ids.user['demo/jamie']}/change-password`, { current: 'hearth-demo-1', password, password_confirmation: password });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  // The server ended the stream opened with the old token; EventSource waits `retry:` (5 s) before reconnecting.
  await eventually(() => stream.readyState === SpecEventSource.CONNECTING, 10_000, 'the old stream ended');
  // Written from elsewhere while the stream is down: no event will name it.
  await write('While the stream was down');

  await eventually(() => onDevice('While the stream was down'), 20_000, 'the missed entry on the device');
  // Reconnected with the new cookie (the old one would be 401, and EventSource would stop for good).
  expect(stream.statuses).toEqual([200, 200]);
  expect(stream.readyState).toBe(SpecEventSource.OPEN);

  // And the reopened stream brings the next change.
  await write('After the stream came back');
  await eventually(() => onDevice('After the stream came back'), 10_000, 'the next entry on the device');
});
