/**
 * The newest comment threads pulled ahead (src/data/replication/threads-ahead.ts) against the real
 * server in-process (PGlite, demo seed): a staff reply reaches the replica without its thread being
 * opened, and is readable offline; threads beyond the newest few, already held, or of an entry not
 * sent yet are not asked for; a background pull keeps no screen waiting; a failure is not retried in
 * a loop; a stop mid-way asks and writes nothing more. Staff reply through the staff API (carer Ali).
 */
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryPaths } from '@/contract/paths';
import type { Account } from '@/contract/users';
import { closeReplica, openReplicaForAccount } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import { syncFields, type JournalDoc } from '@/data/replica/types';
import { startReplication, type ReplicationHandle, type ReplicationOptions } from '@/data/replication/controller';
import { commentsReplication } from '@/data/replication/endpoints';
import { isFirstPullPending, replicationStatus } from '@/data/replication/sync-status';
import { THREADS_AHEAD_SETTLE_MS } from '@/data/replication/threads-ahead';
import { comments$ } from '@/entries/hooks/entry-queries';
import type { Client } from '../server/support/client';
import { demoIds, signedIn } from '../server/support/session';
import { WAIT_MS } from '../support/wait';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

let sync: SyncTestServer;
let account: Account;
let jamie: Client;
let ali: Client;
let aliId: string;
const handles: ReplicationHandle[] = [];
let restoreFetch: (() => void) | null = null;

beforeAll(async () => {
  sync = await startSyncServer();
  // Before src/api's session exists: the fetch wrapper adds it only to requests without cookies of their own.
  ali = await signedIn(sync.server, 'carer.ali');
  jamie = await signedIn(sync.server, 'jamie');
  aliId = (await demoIds(sync.server)).user['demo/carer.ali']!;
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
afterEach(async () => {
  restoreFetch?.();
  restoreFetch = null;
  await Promise.all(handles.splice(0).map((h) => h.stop()));
  await closeReplica();
});

async function openFresh(): Promise<OpenReplica> {
  return openReplicaForAccount(account, uniqueName('site'), { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false });
}

function replicate(open: OpenReplica, options: ReplicationOptions = {}): ReplicationHandle {
  const handle = startReplication(open, { liveTriggers: false, retryTime: 200, ...options });
  handles.push(handle);
  return handle;
}

/** A journal entry Jamie writes (shared with Ali) through the API, and its id. */
async function jamieWrites(description: string): Promise<string> {
  const res = await jamie.post(`/api${entryPaths.journal.entries.build()}`, { description, shared_with: [aliId] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: { id: string } }).data.id;
}

async function aliReplies(entryId: string, comment: string): Promise<void> {
  const res = await ali.post(`/api${entryPaths.journal.comments.build()}`, { entry_id: entryId, comment });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const threadPath = (entryId: string) => `/api${entryPaths.journal.entryComments.build(entryId)}`;
/** The requests for one entry's thread since `from` (an index into the recorded requests). */
const threadAsks = (entryId: string, from = 0) => sync.requests.slice(from).filter((r) => r.method === 'GET' && r.url.pathname === threadPath(entryId)).length;
const threadOf = async (open: OpenReplica, entryId: string) => (await firstValueFrom(comments$(open.db, 'journal', entryId))).map((c) => c.comment);

describe('threads pulled ahead', () => {
  it('a staff reply is in the replica without its thread being opened, a later one too, and both read offline', async () => {
    const entryId = await jamieWrites('Threads ahead: the trip next week');
    await aliReplies(entryId, 'Have a brilliant time on the trip');
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    await eventually(async () => (await threadOf(open, entryId)).length === 1, WAIT_MS, 'the reply pulled ahead');

    // A reply written later raises the entry's count with the journal's re-pull: its thread is pulled again.
    await aliReplies(entryId, 'Remember your charger');
    handle.reSync(['journal']);
    await eventually(async () => (await threadOf(open, entryId)).length === 2, WAIT_MS, 'the later reply pulled ahead');
    await handle.stop();

    // No Wi-Fi on the trip: every request fails, the app starts again, the thread reads from the replica.
    const attempts: string[] = [];
    const before = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      attempts.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    restoreFetch = () => {
      globalThis.fetch = before;
    };
    replicate(open);
    await eventually(() => attempts.length > 0, WAIT_MS, 'an offline request');
    expect(await threadOf(open, entryId)).toEqual(['Have a brilliant time on the trip', 'Remember your charger']);
  });

  it('only the newest threads are pulled ahead, and a thread already held is not asked for again, after a restart too', async () => {
    for (const n of [1, 2, 3]) await aliReplies(await jamieWrites(`Threads ahead: limit ${n}`), `Reply ${n}`);
    const from = sync.requests.length;
    const open = await openFresh();
    const handle = replicate(open, { threadsAheadPerKind: 2 });
    await handle.awaitInitial();

    // The window as the module reads it: the newest two entries on the server, by sort key then id
    // (entries written within the same minute share a sort key). Each has replies (written just now).
    const journal = (await open.db.journal.find().exec()).map((d) => d.toJSON() as JournalDoc);
    const byNewest = (a: JournalDoc, b: JournalDoc) => (a.sort_key !== b.sort_key ? (a.sort_key < b.sort_key ? 1 : -1) : a.id < b.id ? 1 : -1);
    const newest = [...journal].sort(byNewest).slice(0, 2);
    expect(newest.map((d) => d.comments_count > 0)).toEqual([true, true]);
    const beyond = journal.filter((d) => d.comments_count > 0 && !newest.some((n) => n.id === d.id));
    expect(beyond.length, 'older threads with replies (the seed and this test)').toBeGreaterThan(2);
    const [first, second] = newest as [JournalDoc, JournalDoc];

    await eventually(async () => (await Promise.all(newest.map(async (d) => (await threadOf(open, d.id)).length === d.comments_count))).every(Boolean), WAIT_MS, 'the newest threads');
    // One more reply on the older of the two: the journal's re-pull changes entries, the module looks
    // again. Rounds run one after another, newest thread first, so once this reply is in, every
    // request the start's round or this one made for the other threads has been made.
    await aliReplies(second.id, 'One more thing');
    handle.reSync(['journal']);
    await eventually(async () => (await threadOf(open, second.id)).length === second.comments_count + 1, WAIT_MS, 'the newer reply');
    expect(threadAsks(second.id, from)).toBe(2);
    expect(threadAsks(first.id, from), 'held already: not asked again').toBe(1);
    for (const older of beyond) expect(threadAsks(older.id, from), older.description ?? older.id).toBe(0);
    expect(await threadOf(open, beyond[0]!.id)).toEqual([]);

    // Started again (a reload): the threads it holds whole are not asked for again, by their counts.
    await handle.stop();
    const restartedFrom = sync.requests.length;
    const again = replicate(open, { threadsAheadPerKind: 2 });
    await again.awaitInitial();
    await aliReplies(second.id, 'And another');
    again.reSync(['journal']);
    await eventually(async () => (await threadOf(open, second.id)).length === second.comments_count + 2, WAIT_MS, 'the reply after the restart');
    expect(threadAsks(first.id, restartedFrom), 'held whole: not asked after the restart').toBe(0);
    expect(threadAsks(second.id, restartedFrom)).toBe(1);
  });

  it('an entry written here and not sent yet takes no place among the newest: it has no thread on the server', async () => {
    await aliReplies(await jamieWrites('Threads ahead: the newest on the server'), 'Noted, thank you');
    const open = await openFresh();
    // As an unsent write leaves it (src/entries/data/save-entry.ts), dated after everything else.
    const at = new Date().toISOString();
    await open.db.journal.insert({
      ...syncFields({ state: 'pending', message: null, outbox_id: 'unsent' }),
      id: crypto.randomUUID(),
      updated_at: at,
      resident_id: account.user.resident!.id,
      created_at: at,
      locked_at: null,
      sort_key: '9999-12-31T23:59',
      entry_date: '9999-12-31',
      entry_time: '23:59',
      local_only: true,
      creator: { id: account.user.id, first_name: 'Jamie', last_name: null, photo: null },
      description: 'Written on the bus, not sent',
      reaction: null,
      canvas: null,
      files: [],
      shared_with: [],
      shared_with_management: false,
      comments_count: 0,
      sync_server: null,
    } as never);
    const handle = replicate(open, { threadsAheadPerKind: 1 });
    await handle.awaitInitial();
    const journal = (await open.db.journal.find({ selector: { local_only: false }, sort: [{ sort_key: 'desc' }, { id: 'desc' }], limit: 1 }).exec()).map((d) => d.toJSON() as JournalDoc);
    const [newest] = journal as [JournalDoc];
    expect(newest.comments_count).toBeGreaterThan(0);
    await eventually(async () => (await threadOf(open, newest.id)).length === newest.comments_count, WAIT_MS, 'the newest thread on the server');
  });

  it('a thread pulled in the background keeps no screen waiting; a screen opening it waits for it', async () => {
    await aliReplies(await jamieWrites('Threads ahead: a screen opens it meanwhile'), 'Saw this, will chat later');
    const gate = holdThreads();
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    await eventually(() => gate.asked.length === 1, WAIT_MS, 'a thread asked for');
    const [entryId] = gate.asked as [string];
    expect(isFirstPullPending(replicationStatus.get(), 'comments')).toBe(false);

    const release = handle.acquire(commentsReplication('journal', entryId));
    expect(isFirstPullPending(replicationStatus.get(), 'comments')).toBe(true);
    gate.open();
    expect(await release.firstPull).toEqual({ ok: true });
    await eventually(() => !isFirstPullPending(replicationStatus.get(), 'comments'), WAIT_MS, 'the pull ended');
    expect((await threadOf(open, entryId)).length).toBeGreaterThan(0);
    release();
  });

  it('a thread the server fails is not asked again in a loop: the next re-sync tries again', async () => {
    await aliReplies(await jamieWrites('Threads ahead: the server is struggling'), 'Here when you need me');
    const failing = failThreads();
    const open = await openFresh();
    // RxDB's own retry of a failed pull (`retryTime`) is not what is tested here: the app's 10 s.
    const handle = replicate(open, { retryTime: 10_000 });
    await handle.awaitInitial();
    await eventually(() => failing.asked.length > 0, WAIT_MS, 'a thread asked for');
    // Nothing can be polled for here: watch for any other request over twice the module's settle time.
    const quietly = async () => {
      const before = failing.asked.length;
      const until = Date.now() + 2 * THREADS_AHEAD_SETTLE_MS;
      await eventually(() => failing.asked.length > before || Date.now() > until, WAIT_MS, 'a quiet while');
      return failing.asked.length - before;
    };
    expect(await quietly(), 'the round ended at the failure').toBe(0);
    expect(failing.asked).toHaveLength(1);
    handle.reSync(['feedback']);
    await eventually(() => failing.asked.length > 1, WAIT_MS, 'asked again after the re-sync');
    expect(await quietly()).toBe(0);
    expect(failing.asked).toHaveLength(2);
  });

  it('stopped mid-way, it asks for nothing more and writes nothing', async () => {
    const ids = [await jamieWrites('Threads ahead: stop one'), await jamieWrites('Threads ahead: stop two')];
    for (const id of ids) await aliReplies(id, `Reply to ${id}`);
    const gate = holdThreads();
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    await eventually(() => gate.asked.length === 1, WAIT_MS, 'the first thread asked for');
    const [held] = gate.asked as [string];

    await handle.stop();
    const written: unknown[] = [];
    const watching = open.db.comments.eventBulks$.subscribe((bulk) => written.push(bulk));
    try {
      gate.open();
      await eventually(() => gate.answered === 1, WAIT_MS, 'the held answer delivered');
      // Nothing can be polled for here: watch for anything at all, over twice the module's settle time.
      const until = Date.now() + 2 * THREADS_AHEAD_SETTLE_MS;
      await eventually(() => gate.asked.length > 1 || written.length > 0 || Date.now() > until, WAIT_MS, 'a quiet while');
      expect(gate.asked).toEqual([held]);
      expect(written).toEqual([]);
      expect(await threadOf(open, held)).toEqual([]);
    } finally {
      watching.unsubscribe();
    }
  });
});

/** A journal thread's address; its entry id. */
const THREAD = /\/journal\/entries\/([0-9a-f-]{36})\/comments$/;

/**
 * Holds every thread request (any entry) until `open()`; `asked` lists their entry ids in order,
 * `answered` counts those delivered to the app.
 */
function holdThreads(): { asked: string[]; answered: number; open(): void } {
  const inner = globalThis.fetch;
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  const gate = {
    asked: [] as string[],
    answered: 0,
    open: () => release(),
  };
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const match = THREAD.exec(url.pathname);
    if (!match || (init?.method ?? 'GET') !== 'GET') return inner(input, init);
    gate.asked.push(match[1]!);
    await opened;
    const response = await inner(input, init);
    gate.answered += 1;
    return response;
  }) as typeof fetch;
  restoreFetch = () => {
    globalThis.fetch = inner;
  };
  return gate;
}

/** Answers every thread request 503 (the server failing); `asked` lists their entry ids in order. */
function failThreads(): { asked: string[] } {
  const inner = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const match = THREAD.exec(url.pathname);
    if (!match || (init?.method ?? 'GET') !== 'GET') return inner(input, init);
    asked.push(match[1]!);
    return new Response(JSON.stringify({ success: false, message: 'Service unavailable' }), { status: 503, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  restoreFetch = () => {
    globalThis.fetch = inner;
  };
  return { asked };
}
