/**
 * Journal writes against the real server in-process (PGlite, demo seed): the outbox sends through
 * the page's real transport, the replica pulls through the real replication. A create carries the
 * client's id and the server keeps it, so the pending document and the server's row are one
 * document whichever comes first, the outbox's success or a pull.
 *
 * Depend on the server keeping client ids (server/routes/entries, comments): the tests marked
 * [server: client ids]. Depend on the server refusing changes to a closed conversation: [server: lock].
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/contract/users';
import { entryMessages } from '@/contract/entries';
import { discardFailedComment, postComment, updateComment } from '@/entries/data/comments';
import { fileCacheKey } from '@/entries/data/file-keys';
import { saveEntry } from '@/entries/data/save-entry';
import { base64ToBytes } from '@/contract/base64';
import { flushOutboxNowOnline, refreshCounts, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import { discardFailedEntry, retryFailedEntry } from '@/entries/data/failed-entry';
import type { TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { CommentDoc, FileDoc, JournalDoc } from '@/data/replica/types';
import { commentsReplication } from '@/data/replication/endpoints';
import { FakeClassifier, pngImage } from '../server/support/uploads';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

// The device's own image check is a separate call (tested elsewhere): here it always passes.
vi.mock('@/api/entries/check-image', () => ({ checkImage: vi.fn(async () => ({ ok: true, status: 200, data: { inappropriate: false } })) }));

let sync: SyncTestServer;
let account: Account;
let open: OpenReplica;
let online = true;
/** Runs after the server answered a write and before the outbox hears of it. */
let afterServerAnswered: ((request: TransportRequest, response: TransportResponse) => Promise<void>) | null = null;
const TAG = `sync-${Date.now().toString(36)}`;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: true, replication: { liveTriggers: false, retryTime: 200 } };

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  afterServerAnswered = null;
  outboxToServer(sync, () => online, () => afterServerAnswered);
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
  await getReplication()!.awaitInitial();
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const commentDoc = async (id: string) => (await open.db.comments.findOne(id).exec())?.toJSON() as CommentDoc | undefined;
const journalDocs = async (): Promise<JournalDoc[]> => (await open.db.journal.find().exec()).map((d) => d.toJSON() as JournalDoc);
const tagged = async (text: string) => (await journalDocs()).filter((d) => d.description?.includes(text));
const serverRows = (text: string) =>
  sync.server.db.selectFrom('journal_entries').select(['id', 'description']).where('description', 'like', `%${text}%`).where('deleted_at', 'is', null).execute();

async function pullJournal(): Promise<void> {
  const before = sync.requests.filter((r) => r.url.pathname.endsWith('/journal/entries')).length;
  getReplication()!.reSync(['journal']);
  await eventually(() => sync.requests.filter((r) => r.url.pathname.endsWith('/journal/entries')).length > before, 10_000, 'the journal pull');
  await getReplication()!.awaitInSync();
}

function photo(name: string): File {
  return new File([new Uint8Array(pngImage(4, 4, [200, 120, 40]))], name, { type: 'image/png' });
}

/** The photo's bytes as the encrypted file store holds them under the server's file id. */
async function storedBytes(fileId: string): Promise<Uint8Array | null> {
  const doc = await open.db.files.findOne(fileCacheKey('journal', fileId)).exec();
  const data = (doc?.toJSON() as FileDoc | undefined)?.data;
  return data ? base64ToBytes(data) : null;
}

describe('journal writes with the real server', () => {
  it('[server: client ids] success, then a pull: one document under the client id, synced, its photo readable offline', async () => {
    const text = `${TAG} success first`;
    const image = photo('beach.png');
    const result = await saveEntry('journal', { description: text, files: [image] });
    const id = result.ok ? result.id : '';
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the settled entry');

    // The server made the row under the id the client sent.
    expect((await serverRows(text)).map((r) => r.id)).toEqual([id]);
    await pullJournal();
    const docs = await tagged(text);
    expect(docs.map((d) => [d.id, d.sync_state, d.local_only])).toEqual([[id, 'synced', false]]);
    expect(docs[0]!.files).toHaveLength(1);
    expect(await storedBytes(docs[0]!.files[0]!.id)).toEqual(new Uint8Array(await image.arrayBuffer()));
    expect((await open.db.files.find({ selector: { kind: 'local' } }).exec()).length).toBe(0);
  });

  it('[server: client ids] a pull before the outbox hears of its success: the row lands on the pending document, never a second copy', async () => {
    const text = `${TAG} pull first`;
    const image = photo('park.png');
    let parked: JournalDoc | null = null;
    afterServerAnswered = async (request, response) => {
      if (response.status !== 201) return;
      const localId = request.headers['Idempotency-Key']!;
      await pullJournal();
      // The pull found the pending document under the same id: the server's row waits in sync_server.
      await eventually(async () => Boolean((await open.db.journal.findOne(localId).exec())?.get('sync_server')), 5_000, 'the parked row').catch(() => undefined);
      parked = ((await open.db.journal.findOne(localId).exec())?.toJSON() as JournalDoc | undefined) ?? null;
    };
    const result = await saveEntry('journal', { description: text, files: [image] });
    const id = result.ok ? result.id : '';
    expect((await waitForOutboxToDrain(15_000)).drained).toBe(true);
    // Before the outbox's success: pending, the local text kept, the server's row parked on it.
    expect(parked).toMatchObject({ id, sync_state: 'pending', local_only: true, sync_server: expect.objectContaining({ id, local_only: false }) });
    expect((await tagged(text)).length).toBe(1);
    await eventually(async () => (await tagged(text)).every((d) => d.sync_state === 'synced'), 10_000, 'the settled entry');

    expect((await serverRows(text)).map((r) => r.id)).toEqual([id]);
    const docs = await tagged(text);
    expect(docs.map((d) => [d.id, d.sync_state, d.local_only, d.sync_server ?? null])).toEqual([[id, 'synced', false, null]]);
    expect(await storedBytes(docs[0]!.files[0]!.id)).toEqual(new Uint8Array(await image.arrayBuffer()));
    await pullJournal();
    expect((await tagged(text)).map((d) => d.id)).toEqual([id]);
  });

  it('[server: client ids] a reply is kept under the client id; the thread’s pull shows it once, in time order', async () => {
    const text = `${TAG} thread`;
    const entry = await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const entryId = (await tagged(text))[0]!.id;
    expect(entryId).toBe(entry.ok ? entry.id : '');

    const first = await postComment('journal', entryId, { comment: `${text} one` });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    const second = await postComment('journal', entryId, { comment: `${text} two` });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    const release = getReplication()!.acquire(commentsReplication('journal', entryId));
    try {
      const ids = [first.ok ? first.id : '', second.ok ? second.id : ''];
      await eventually(
        async () => {
          const docs = (await open.db.comments.find({ selector: { entry_id: entryId } }).exec()).map((c) => c.toJSON() as CommentDoc);
          return docs.length === 2 && docs.every((d) => d.sync_state === 'synced' && !d.local_only);
        },
        10_000,
        'the thread',
      );
      const rows = await sync.server.db.selectFrom('entry_comments').select('id').where('entry_id', '=', entryId).execute();
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      const { comments$ } = await import('@/entries/hooks/entry-queries');
      const { firstValueFrom } = await import('rxjs');
      expect((await firstValueFrom(comments$(open.db, 'journal', entryId))).map((c) => c.id)).toEqual(ids);
    } finally {
      release();
    }
  });

  it('staff close the conversation while a change waits offline: the pull shows the lock at once and keeps the words', async () => {
    const text = `${TAG} lock while pending`;
    await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const id = (await tagged(text))[0]!.id;

    online = false;
    expect(await saveEntry('journal', { description: `${text} changed offline` }, { id })).toMatchObject({ ok: true, queuedOffline: true });
    await sync.server.db.updateTable('journal_entries').set({ locked_at: sql`now()`, updated_at: sql`clock_timestamp()` }).where('id', '=', id).execute();
    await pullJournal();
    await eventually(async () => Boolean((await open.db.journal.findOne(id).exec())?.get('locked_at')), 10_000, 'the lock');
    expect((await open.db.journal.findOne(id).exec())!.toJSON()).toMatchObject({ description: `${text} changed offline`, sync_state: 'pending' });
  });

  it('[server: lock] the server refuses the queued change with its locked message: failed, the text kept', async () => {
    const text = `${TAG} refused`;
    await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const id = (await tagged(text))[0]!.id;

    // Locked on the server after the device last pulled: the device does not know yet.
    await sync.server.db.updateTable('journal_entries').set({ locked_at: sql`now()`, updated_at: sql`clock_timestamp()` }).where('id', '=', id).execute();
    expect(await saveEntry('journal', { description: `${text} too late` }, { id })).toMatchObject({ ok: true });
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'failed', 10_000, 'the refusal');
    expect((await open.db.journal.findOne(id).exec())!.toJSON()).toMatchObject({ description: `${text} too late`, sync_message: entryMessages.locked });
  });

  it('[server: lock] a refused change is never stuck: Try again sends it again, Discard brings back the server copy (offline) and empties the queue', async () => {
    const text = `${TAG} discard`;
    await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const id = (await tagged(text))[0]!.id;
    await sync.server.db.updateTable('journal_entries').set({ locked_at: sql`now()`, updated_at: sql`clock_timestamp()` }).where('id', '=', id).execute();

    expect(await saveEntry('journal', { description: `${text} refused` }, { id })).toMatchObject({ ok: true });
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'failed', 10_000, 'the refusal');
    expect((await refreshCounts()).failed).toBe(1);

    // Try again: the same write goes once more (and is refused once more: the conversation is closed).
    const puts = () => sync.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith(`/journal/entries/${id}`)).length;
    const before = puts();
    expect(await retryFailedEntry('journal', id)).toEqual({ ok: true });
    await eventually(() => puts() > before, 10_000, 'the second attempt');
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'failed', 10_000, 'the second refusal');

    // Discard, offline: the server's copy from before the change comes back, and nothing is left to send.
    online = false;
    expect(await discardFailedEntry('journal', id)).toEqual({ ok: true });
    expect((await open.db.journal.findOne(id).exec())!.toJSON()).toMatchObject({ description: text, sync_state: 'synced', sync_server: null });
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('[server: lock] Try again marks the entry pending before the write goes again: a quick answer settles it, never the other way round', async () => {
    const text = `${TAG} retried`;
    await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const id = (await tagged(text))[0]!.id;
    const lock = (closed: boolean) =>
      sync.server.db.updateTable('journal_entries').set({ locked_at: closed ? sql<Date>`now()` : null, updated_at: sql`clock_timestamp()` }).where('id', '=', id).execute();
    await lock(true);
    expect(await saveEntry('journal', { description: `${text} again` }, { id })).toMatchObject({ ok: true });
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'failed', 10_000, 'the refusal');
    await lock(false);

    // A busy device: every read of the entry takes a while, so the answer can come back first.
    const collection = open.db.journal;
    const findOne = collection.findOne.bind(collection);
    collection.findOne = ((query: string) => {
      const rxQuery = findOne(query);
      if (query !== id) return rxQuery;
      return { exec: async () => (await new Promise((resolve) => setTimeout(resolve, 300)), rxQuery.exec()) };
    }) as unknown as typeof collection.findOne;
    const statesAtAnswer: string[] = [];
    afterServerAnswered = async (request) => {
      if (request.url.includes(`/journal/entries/${id}`)) statesAtAnswer.push(String((await findOne(id).exec())?.get('sync_state')));
    };
    try {
      expect(await retryFailedEntry('journal', id)).toEqual({ ok: true });
      await eventually(() => statesAtAnswer.length > 0, 10_000, 'the write sent again');
      await eventually(async () => (await findOne(id).exec())?.get('sync_state') === 'synced', 10_000, 'the settled entry');
    } finally {
      delete (collection as unknown as Record<string, unknown>).findOne;
    }
    expect(statesAtAnswer).toEqual(['pending']);
    expect((await open.db.journal.findOne(id).exec())!.toJSON()).toMatchObject({ description: `${text} again`, sync_state: 'synced', sync_outbox_id: null });
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('a refused entry the server never had is removed by Discard', async () => {
    const text = `${TAG} never created`;
    // Shared with someone who is not staff of jamie's home: the server refuses the create (422).
    const saved = await saveEntry('journal', { description: text, sharedWith: ['00000000-0000-4000-8000-000000000000'] });
    expect(saved.ok).toBe(true);
    const id = saved.ok ? saved.id : '';
    await eventually(async () => (await open.db.journal.findOne(id).exec())?.get('sync_state') === 'failed', 10_000, 'the refusal');
    expect((await open.db.journal.findOne(id).exec())!.get('local_only')).toBe(true);
    expect(await discardFailedEntry('journal', id)).toEqual({ ok: true });
    expect(await open.db.journal.findOne(id).exec()).toBeNull();
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });
  });

  it('[server: lock] a refused reply is never stuck: Try again of a refused edit goes (not behind the refused one), Discard takes back a new reply or an edit, and the queue empties', async () => {
    const text = `${TAG} replies`;
    await saveEntry('journal', { description: text });
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await tagged(text))[0]?.sync_state === 'synced', 10_000, 'the entry');
    const entryId = (await tagged(text))[0]!.id;
    const reply = await postComment('journal', entryId, { comment: `${text} first words` });
    const replyId = reply.ok ? reply.id : '';
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await commentDoc(replyId))?.sync_state === 'synced', 10_000, 'the reply');
    const lock = (at: 'now' | null) =>
      sync.server.db.updateTable('journal_entries').set({ locked_at: at ? sql`now()` : null, updated_at: sql`clock_timestamp()` }).where('id', '=', entryId).execute();

    // Written offline, and closed on the server before they arrive: an edit of the reply and a new reply with a photo are refused.
    online = false;
    expect((await updateComment('journal', replyId, { comment: `${text} edited` })).ok).toBe(true);
    const image = photo('reply.png');
    const second = await postComment('journal', entryId, { comment: `${text} second`, files: [image] });
    const secondId = second.ok ? second.id : '';
    await lock('now');
    online = true;
    flushOutboxNowOnline();
    await eventually(async () => (await commentDoc(replyId))?.sync_state === 'failed' && (await commentDoc(secondId))?.sync_state === 'failed', 10_000, 'the refusals');
    expect((await refreshCounts()).failed).toBe(2);

    // Opened again: Try again (an edit of the reply, as the screen does) goes, instead of waiting behind the refused write for ever.
    await lock(null);
    expect((await updateComment('journal', replyId, { comment: `${text} edited` })).ok).toBe(true);
    expect((await updateComment('journal', secondId, { comment: `${text} second` })).ok).toBe(true);
    expect((await waitForOutboxToDrain(10_000)).drained).toBe(true);
    await eventually(async () => (await commentDoc(replyId))?.sync_state === 'synced' && (await commentDoc(secondId))?.sync_state === 'synced', 10_000, 'both sent');
    const rows = await sync.server.db.selectFrom('entry_comments').select(['id', 'comment']).where('entry_id', '=', entryId).execute();
    expect(new Map(rows.map((r) => [r.id, r.comment]))).toEqual(new Map([[replyId, `${text} edited`], [secondId, `${text} second`]]));
    // The photo of the refused new reply went with it the second time.
    const files = await sync.server.db.selectFrom('entry_files').select(['name', 'size']).where('entry_type', '=', 'comment').where('entry_id', '=', secondId).execute();
    expect(files).toEqual([{ name: 'reply.png', size: image.size }]);
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });

    // Closed again: a refused edit is discarded (the server's copy comes back, offline too), a refused new reply goes.
    online = false;
    expect((await updateComment('journal', replyId, { comment: `${text} too late` })).ok).toBe(true);
    const third = await postComment('journal', entryId, { comment: `${text} third` });
    const thirdId = third.ok ? third.id : '';
    await lock('now');
    online = true;
    flushOutboxNowOnline();
    await eventually(async () => (await commentDoc(replyId))?.sync_state === 'failed' && (await commentDoc(thirdId))?.sync_state === 'failed', 10_000, 'the refusals');
    online = false;
    expect(await discardFailedComment(replyId)).toEqual({ ok: true });
    expect(await discardFailedComment(thirdId)).toEqual({ ok: true });
    expect(await commentDoc(replyId)).toMatchObject({ comment: `${text} edited`, sync_state: 'synced' });
    expect(await commentDoc(thirdId)).toBeUndefined();
    expect(await refreshCounts()).toMatchObject({ pending: 0, failed: 0 });
  });
});
