import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushUrls } from '@/contract/push';
import type { Account } from '@/contract/users';
import { prefetchLink } from '@/data/prefetch/page-link';
import {
  deletePrefetchStore,
  prefetchForPush,
  pullsFor,
  readNextPulls,
  storePrefetchedPage,
  takePrefetchedPage,
  type NextPull,
  type PrefetchPlace,
} from '@/data/prefetch/store';
import { prefetchDatabaseFor } from '@/data/owner';
import { closeReplica, openReplicaForAccount } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import { commentsReplication } from '@/data/replication/endpoints';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { WAIT_MS } from '../support/wait';

/**
 * Pulling ahead on a push (issue 10) against the real server: the page's replications record the
 * request each makes next; the worker's part (prefetchForPush, here with Node's fetch carrying
 * jamie's session, as the worker's fetch carries the browser's cookies) keeps the answers sealed;
 * the app started offline afterwards reads them, so a staff reply made while the app was closed is on
 * the device. The worker's own wiring (push event, its fetch) is proven in e2e/push.spec.ts.
 */
const CANARY = 'CANARY-staff-wrote-while-closed-7e1d';

let sync: SyncTestServer;
let account: Account;
let ali: Client;
const handles: ReplicationHandle[] = [];

beforeAll(async () => {
  sync = await startSyncServer();
  // Before src/api's session exists: the fetch wrapper adds it only to requests without cookies of their own.
  ali = await signedIn(sync.server, 'carer.ali');
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop()));
  await closeReplica();
});

async function openWithPrefetch() {
  const key = randomKey();
  const open = await openReplicaForAccount(account, uniqueName('site'), { ...fakeIdb, multiInstance: false, key, replicate: false });
  const place: PrefetchPlace = { factory: fakeIdb.indexedDB, owner: open.name };
  return { open, key, place, link: prefetchLink(place, key) };
}

function replicate(open: OpenReplica, link: ReturnType<typeof prefetchLink>): ReplicationHandle {
  const handle = startReplication(open, { liveTriggers: false, retryTime: 200, prefetch: link });
  handles.push(handle);
  return handle;
}

async function staffComment(entryId: string, comment: string): Promise<void> {
  const res = await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: entryId, comment });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Node's fetch (wrapped by the sync server to carry jamie's cookies), as the worker's `get`. */
const get = (url: string) => fetch(url, { headers: { Accept: 'application/json' } });

describe('pulling ahead on a push', () => {
  it('every replication records its next request, sealed', async () => {
    const { open, key, place, link } = await openWithPrefetch();
    await replicate(open, link).awaitInitial();
    const resident = account.user.resident!.id;
    const pulls = await eventually(async () => (await readNextPulls(place, key)).length >= 10, WAIT_MS, 'the records').then(() => readNextPulls(place, key));
    const byId = new Map(pulls.map((p) => [p.identifier, p]));
    expect([...byId.keys()]).toEqual(expect.arrayContaining(['feedback', 'journal', 'voice', `tasks:current:${resident}`, `tasks:completed:${resident}`, `points:${resident}`, `resident:${resident}`]));
    const feedback = new URL(byId.get('feedback')!.url);
    expect(feedback.origin + feedback.pathname).toBe(`${sync.server.base}/api/v1/projects/residents/feedback`);
    expect(feedback.searchParams.get('checkpoint[updated_at]')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(feedback.searchParams.get('with_trashed')).toBe('1');
    expect(byId.get('feedback')!.topics).toEqual(['feedback', 'journal', 'voice']);
    expect(byId.get('feedback')!.screen).toBeNull();

    // At rest: ids as keys, everything else ciphertext.
    const { text } = await dumpIndexedDb(prefetchDatabaseFor(open.name));
    expect(text).toContain('feedback');
    for (const plain of ['/api/', 'checkpoint', 'with_trashed', sync.server.base]) expect(text, plain).not.toContain(plain);
    // Another key reads nothing.
    expect(await readNextPulls(place, randomKey())).toEqual([]);
  });

  it('a staff reply made while the app was closed is on the device when it starts offline after the push', async () => {
    const { open, key, place, link } = await openWithPrefetch();
    const first = replicate(open, link);
    await first.awaitInitial();
    const thread = (await open.db.feedback.find({ selector: { type: 'journal' } }).exec())[0];
    expect(thread, 'jamie has a journal thread').toBeTruthy();
    const entryId = thread!.entry_id;
    // The thread was open once: its comments replication recorded its next request too, under its screen.
    const release = first.acquire(commentsReplication('journal', entryId));
    await eventually(async () => (await readNextPulls(place, key)).some((p) => p.identifier === `comments:journal:${entryId}`), WAIT_MS, 'the thread record');
    release();
    await first.stop();

    await staffComment(entryId, CANARY);

    // The worker on the push the server sends for that reply.
    const report = await prefetchForPush(place, key, { topics: ['feedback', 'journal'], screen: pushUrls.entryThread('journal', entryId) }, get);
    expect(report.failed).toEqual([]);
    expect(report.kept).toEqual(expect.arrayContaining(['feedback', 'journal', `comments:journal:${entryId}`]));
    expect(report.kept.filter((id) => id.startsWith('tasks') || id.startsWith('calendar'))).toEqual([]);
    expect((await dumpIndexedDb(prefetchDatabaseFor(open.name))).text).not.toContain(CANARY);
    expect((await open.db.feedback.findOne(thread!.id).exec())?.latest_comment.comment).not.toBe(CANARY);

    // Offline from now on: every request fails.
    const online = globalThis.fetch;
    const attempts: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      attempts.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    try {
      const second = replicate(open, link);
      await eventually(async () => (await open.db.feedback.findOne(thread!.id).exec())?.latest_comment.comment === CANARY, WAIT_MS, 'the reply in the replica');
      const release2 = second.acquire(commentsReplication('journal', entryId));
      await eventually(async () => (await open.db.comments.find({ selector: { entry_id: entryId } }).exec()).some((c) => c.get('comment') === CANARY), WAIT_MS, 'the comment in the thread');
      release2();
      expect(attempts.filter((url) => url.includes('/feedback?')), 'the feedback came from the kept answer, not the network').toEqual([]);
    } finally {
      globalThis.fetch = online;
    }
    // Used once.
    expect(await takePrefetchedPage(place, key, 'feedback', 'anything')).toBeNull();
  });

  it('a kept answer serves only its own request, once; anything else is dropped unread', async () => {
    const { key, place } = await openWithPrefetch();
    await storePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1', '{"a":1}');
    expect(await takePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=2')).toBeNull();
    expect(await takePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1')).toBeNull();
    await storePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1', '{"a":1}');
    expect(await takePrefetchedPage(place, randomKey(), 'journal', 'https://h.test/api/x?checkpoint=1')).toBeNull();
    await storePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1', '{"a":1}');
    expect(await takePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1')).toBe('{"a":1}');
    expect(await takePrefetchedPage(place, key, 'journal', 'https://h.test/api/x?checkpoint=1')).toBeNull();
  });

  it('a push pulls ahead the replications of its topics, and a screen\'s own only when it names that screen', () => {
    const pull = (identifier: string, topics: string[], screen: string | null = null): NextPull => ({ identifier, topics, screen, url: `https://h.test/${identifier}` });
    const pulls = [
      pull('feedback', ['feedback', 'journal', 'voice']),
      pull('journal', ['journal']),
      pull('tasks:current', ['tasks']),
      pull('points', ['points']),
      pull('comments:journal:a', ['journal', 'feedback'], '/entries/comments/a'),
      pull('comments:journal:b', ['journal', 'feedback'], '/entries/comments/b'),
    ];
    const ids = (wanted: Parameters<typeof pullsFor>[1]) => pullsFor(pulls, wanted).map((p) => p.identifier);
    expect(ids({ topics: ['feedback', 'journal'], screen: '/entries/comments/a' })).toEqual(['feedback', 'journal', 'comments:journal:a']);
    expect(ids({ topics: ['tasks'], screen: '/objectives/x' })).toEqual(['tasks:current']);
    expect(ids({ topics: ['reward_history', 'points', 'resident'], screen: '/rewards/history' })).toEqual(['points']);
    expect(ids({ topics: null, screen: null })).toEqual(['feedback', 'journal', 'tasks:current', 'points']);
  });

  it('a failed request keeps nothing (offline, or the session is gone)', async () => {
    const { open, key, place, link } = await openWithPrefetch();
    await replicate(open, link).awaitInitial();
    const report = await prefetchForPush(place, key, { topics: ['tasks'], screen: null }, async () => ({ ok: false, status: 401, text: async () => '' }));
    expect(report.kept).toEqual([]);
    expect(report.failed.length).toBeGreaterThan(0);
    expect((await dumpIndexedDb(prefetchDatabaseFor(open.name))).text).not.toMatch(/"pages"/);
  });

  it('sign-out deletes the store', async () => {
    const { open, key, place, link } = await openWithPrefetch();
    await replicate(open, link).awaitInitial();
    await eventually(async () => (await readNextPulls(place, key)).length > 0, WAIT_MS, 'a record');
    expect(await listDatabases()).toContain(prefetchDatabaseFor(open.name));
    await Promise.all(handles.splice(0).map((h) => h.stop()));
    await deletePrefetchStore(fakeIdb.indexedDB, open.name);
    expect(await listDatabases()).not.toContain(prefetchDatabaseFor(open.name));
  });
});
