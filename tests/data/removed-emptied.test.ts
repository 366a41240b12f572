/**
 * What a young person wrote or took back leaves nothing in the deleted documents RxDB keeps
 * (src/data/replica/remove-emptied.ts): every place that removes such a document on this device,
 * over a real encrypted replica on fake-indexeddb, the deleted row read back from storage as the
 * sweep's blank tests read it. These rows are pending or failed when removed (or removed by a pull
 * that asks for no sweep, or in `files` and `documents`, which it never blanks), so the file sweep
 * would never blank them later.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptChunkId } from '@/data/documents/kept-bytes';
import { keepDocuments, keeperIdle } from '@/data/documents/keeper';
import { configureOutbox, resetOutboxConfig } from '@/data/outbox/outbox';
import { discardLocalChange, setSyncState } from '@/data/replica/local-writes';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import { removeEmptied } from '@/data/replica/remove-emptied';
import type { OpenReplica } from '@/data/replica/replica-store';
import { pruneTaskOverlays } from '@/data/replica/task-overlays';
import type { DocumentStateDoc, FileDoc, JournalDoc, TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';
import { fileCacheKey, localFileKey } from '@/entries/data/file-keys';
import { forgetRefusedFields, keepRefusedFields } from '@/entries/data/refused-fields';
import { settleServerId } from '@/entries/data/settle-server-id';
import { discardTaskComment } from '@/features/objectives/actions/discard-task-comment';
import { removeExchange } from '@/features/rewards/actions/remove-exchange';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';
import { freshStore, testKey } from './outbox-support';
import { serverJournalRow } from './entries-support';

const options: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };
const LONG_AGO = '2020-01-01T00:00:00.000Z';
/** Words and bytes no other document holds, looked for in what storage keeps. */
const SECRET = 'what I never sent';
const BYTES = Buffer.from(`photo bytes ${SECRET} `.repeat(8)).toString('base64');
const creator = { id: uuid(1), first_name: 'K', last_name: 'D', has_photo: false };

let open: OpenReplica;
beforeEach(async () => {
  configureOutbox({ ...freshStore(), getKey: async () => testKey(), pageOnly: true });
  open = await openReplicaForAccount(testAccount, uniqueName('site'), options);
});
afterEach(async () => {
  resetOutboxConfig();
  await closeReplica();
});

type Collection = 'journal' | 'tasks' | 'points' | 'files' | 'documents';
/** The document as storage keeps it, deleted ones included (decrypted: what the device holds). */
async function stored(collection: Collection, id: string): Promise<Record<string, unknown>> {
  const [doc] = await open.db[collection].storageInstance.findDocumentsById([id], true);
  expect(doc, `${collection} ${id} is in storage`).toBeDefined();
  return doc as unknown as Record<string, unknown>;
}
/** Deleted, and none of what it held left in it. */
async function expectEmptied(collection: Collection, id: string): Promise<Record<string, unknown>> {
  const doc = await stored(collection, id);
  expect(doc._deleted).toBe(true);
  expect(JSON.stringify(doc)).not.toContain(SECRET);
  expect(JSON.stringify(doc)).not.toContain(BYTES);
  return doc;
}

function journal(id: string, overrides: Partial<JournalDoc> = {}): JournalDoc {
  return {
    id, updated_at: '2026-03-10T10:00:00.000000Z', resident_id: uuid(2), created_at: '2026-03-10T10:00:00.000000Z', locked_at: null,
    sort_key: '2026-03-10T09:30', local_only: true, creator, description: SECRET, reaction: null, canvas: null,
    files: [{ id: uuid(71), name: 'me.png', mime: 'image/png', size: 10 }], shared_with: [], shared_with_management: false, comments_count: 0,
    entry_date: '2026-03-10', entry_time: '09:30', sync_state: 'pending', sync_message: null, sync_outbox_id: uuid(90), ...overrides,
  };
}
function overlay(id: string, overrides: Partial<TaskCommentOverlayDoc> = {}): TaskCommentOverlayDoc {
  return {
    id, kind: 'comment', updated_at: '2026-03-10T10:00:00.000000Z', task_log_id: uuid(400), status: '', sort_key: LONG_AGO, local_only: true,
    comment: SECRET, is_review: false, created_at: LONG_AGO, edited_at: null, creator, files: [{ id: uuid(61), name: 'me.png', mime: 'image/png', size: 10 }],
    sync_state: 'failed', sync_message: 'Refused.', sync_outbox_id: uuid(91), ...overrides,
  };
}

describe('a removal on this device leaves no words or bytes in the deleted document', () => {
  it("discarding a refused objective comment: the overlay's words and its photo's bytes", async () => {
    const id = uuid(501);
    await open.db.tasks.insert(overlay(id) as never);
    const file: FileDoc = { id: localFileKey(uuid(61)), kind: 'local', updated_at: LONG_AGO, content_type: 'image/png', data: BYTES, sync_state: 'synced', sync_message: null, sync_outbox_id: null };
    await open.db.files.insert(file);

    expect(await discardTaskComment(id)).toEqual({ ok: true });
    expect(await expectEmptied('tasks', id)).toMatchObject({ kind: 'comment', task_log_id: uuid(400), comment: '', files: [], creator: {} });
    expect(await expectEmptied('files', localFileKey(uuid(61)))).toMatchObject({ data: null, content_type: '' });
  });

  it("forgetting a refused entry's field errors", async () => {
    const id = uuid(502);
    await keepRefusedFields(open.db, 'journal', id, uuid(92), { description: [`${SECRET} is too long`] });
    const docId = (await open.db.files.find().exec()).map((doc) => doc.primary).find((key) => key.startsWith('summary:refused:'))!;
    expect(JSON.stringify(await stored('files', docId))).toContain(SECRET);

    await forgetRefusedFields(open.db, 'journal', id);
    expect(await expectEmptied('files', docId)).toMatchObject({ data: null });
  });

  it('removing a refused reward swap', async () => {
    const id = uuid(503);
    const exchange = {
      id, kind: 'exchange', updated_at: LONG_AGO, sort_key: LONG_AGO, local_only: true, created_at: LONG_AGO, resident_id: uuid(2), reward_id: uuid(3001),
      reward: { id: uuid(3001), name: SECRET, description: null, points: 10, image: null }, points: 10, points_adjustment: 0, refunded_points: 0,
      status: 'pending', note: null, decided_by: null, decided_at: null, sync_state: 'failed', sync_message: 'Refused.', sync_outbox_id: uuid(93),
    };
    await open.db.points.insert(exchange as never);

    expect(await removeExchange(id)).toBe(true);
    expect(await expectEmptied('points', id)).toMatchObject({ kind: 'exchange', reward: {}, points: 0, status: '' });
  });

  it('a create the server kept under its own id: the optimistic document', async () => {
    const localId = uuid(504);
    await open.db.journal.insert(journal(localId));
    const serverId = uuid(505);
    const row = serverJournalRow(serverId, { description: 'the server copy' });

    await settleServerId({ collection: 'journal', id: localId }, { id: serverId, data: row as unknown as Record<string, unknown> });
    expect(await expectEmptied('journal', localId)).toMatchObject({ description: null, files: [] });
    expect((await open.db.journal.findOne(serverId).exec())?.get('description')).toBe('the server copy');
  });

  it("a create settled under the server's own id: the `local:` photos, moved to the server's file id or dropped", async () => {
    const localId = uuid(510);
    const moved = { id: uuid(72), name: 'me.png', mime: 'image/png', size: 10 };
    const dropped = { id: uuid(73), name: 'gone.png', mime: 'image/png', size: 11 };
    await open.db.journal.insert(journal(localId, { files: [moved, dropped] }));
    for (const file of [moved, dropped]) {
      await open.db.files.insert({ id: localFileKey(file.id), kind: 'local', updated_at: LONG_AGO, content_type: 'image/png', data: BYTES, sync_state: 'pending', sync_message: null, sync_outbox_id: uuid(94) });
    }
    const serverFile = { ...moved, id: uuid(74) };
    const row = serverJournalRow(uuid(511), { files: [serverFile] });

    await settleServerId({ collection: 'journal', id: localId }, { id: uuid(511), data: row as unknown as Record<string, unknown> });
    expect((await open.db.files.findOne(fileCacheKey('journal', serverFile.id)).exec())?.get('data')).toBe(BYTES);
    expect(await expectEmptied('files', localFileKey(moved.id))).toMatchObject({ kind: 'local', data: null, content_type: '' });
    expect(await expectEmptied('files', localFileKey(dropped.id))).toMatchObject({ kind: 'local', data: null, content_type: '' });
  });

  it("a document gone from the device: its kept chunks and this device's state of it (reading, answers on their way, errors)", async () => {
    const documentId = uuid(601);
    const blob = { id: uuid(602), mime: 'application/pdf', size: 10, chunks: 1, stored: 10 };
    const state: DocumentStateDoc = {
      id: `state:${documentId}`, kind: 'state', updated_at: LONG_AGO, document_id: documentId, opened_version: 1, reading: { page_id: uuid(603), at: LONG_AGO }, keep: true,
      kept: { version: 1, blobs: [blob], complete: true, bytes: 10, at: LONG_AGO },
      outgoing: { id: uuid(604), answers: { going_well: SECRET }, files: [], queued_at: LONG_AGO }, errors: { going_well: [`${SECRET} is too long`] },
      sync_state: 'synced', sync_message: null, sync_outbox_id: null,
    };
    await open.db.documents.insert(state as never);
    const chunkId = keptChunkId(documentId, blob.id, 0);
    await open.db.files.insert({ id: chunkId, kind: 'kept', updated_at: LONG_AGO, content_type: 'application/pdf', data: BYTES, sync_state: 'synced', sync_message: null, sync_outbox_id: null });

    // No row names the document (withdrawn, or no longer theirs): the keeper's pass erases what is left.
    await keepDocuments(open);
    await keeperIdle(open);
    expect(await expectEmptied('files', chunkId)).toMatchObject({ kind: 'kept', data: null, content_type: '' });
    expect(await expectEmptied('documents', state.id)).toMatchObject({ kind: 'state', reading: null, kept: null, outgoing: null, errors: null, opened_version: null, keep: null });
  });

  it('discarding a change the server refused to an entry it never had', async () => {
    const id = uuid(506);
    await open.db.journal.insert(journal(id, { sync_state: 'failed', sync_message: 'Refused.' }));

    expect(await discardLocalChange('journal', id)).toBe(true);
    expect(await expectEmptied('journal', id)).toMatchObject({ description: null, files: [] });
  });

  it('a change delivered to an entry the server has deleted since: the tombstone parked beside it', async () => {
    const id = uuid(507);
    const tombstone = { ...journal(id, { local_only: false, updated_at: '2026-03-11T10:00:00.000000Z', sync_state: 'synced', sync_outbox_id: null }), _deleted: true };
    await open.db.journal.insert(journal(id, { local_only: false, sync_server: tombstone }));

    await setSyncState('journal', id, { state: 'synced', message: null, outbox_id: null }, { outboxId: uuid(90) });
    expect(await expectEmptied('journal', id)).toMatchObject({ description: null, sync_server: null });
  });

  it("an objective comment overlay the log's pull has taken over", async () => {
    const id = uuid(508);
    await open.db.tasks.insert(overlay(id, { sync_state: 'synced', sync_message: null, sync_outbox_id: null, local_only: false, files: [] }) as never);
    const log = {
      id: uuid(400), kind: 'log', updated_at: '2026-03-12T10:00:00.000000Z', task_log_id: uuid(400), status: 'current', sort_key: LONG_AGO, local_only: false,
      task_id: uuid(401), resident_id: uuid(2), answers: {}, completed_at: null, reviewed: false, task: {}, form_version: {}, created_at: LONG_AGO,
      comments: [{ id, comment: 'the log carries it', files: [], creator }], sync_state: 'synced', sync_message: null, sync_outbox_id: null,
    } as unknown as TaskLogDoc;
    await open.db.tasks.insert(log as never);

    await pruneTaskOverlays(open.db);
    expect(await expectEmptied('tasks', id)).toMatchObject({ kind: 'comment', comment: '' });
    expect((await open.db.tasks.findOne(uuid(400)).exec())?.get('comments')).toHaveLength(1);
  });

  it('a removal made on a revision changed since is refused, as remove() is, and the document keeps its change', async () => {
    const id = uuid(509);
    await open.db.journal.insert(journal(id, { sync_state: 'failed' }));
    const read = await open.db.journal.findOne(id).exec();
    await read!.incrementalPatch({ description: 'written again' });
    await expect(removeEmptied(read!)).rejects.toThrow();
    expect((await open.db.journal.findOne(id).exec())?.get('description')).toBe('written again');
  });
});
