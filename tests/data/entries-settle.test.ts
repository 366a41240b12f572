/**
 * Settling a delivered create that the server kept under the client's id (the outbox's success
 * path, src/entries/data/settle.ts), with a scripted server: the pending document becomes the
 * server's copy in place, its photo stays readable offline, and a pull that parked the server's
 * row first changes nothing about "one document".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import type { Comment } from '@/contract/comments';
import { fileCacheKey } from '@/entries/data/file-keys';
import { settleDelivered } from '@/entries/data/settle';
import { saveEntry } from '@/entries/data/save-entry';
import { base64ToBytes } from '@/contract/base64';
import { configureOutbox, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import type { TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { CommentDoc, FileDoc, JournalDoc } from '@/data/replica/types';
import { postJournalComment } from '@/features/journal/actions/post-journal-comment';
import { account, pngFile, sentField, sentId, serverJournalRow, uuid } from './entries-support';
import { fakeIdb, randomKey, uniqueName } from './fixtures';
import { fakeTransport, freshStore, testKey } from './outbox-support';
import { waitUntil } from '../support/wait';

const checkImage = vi.hoisted(() => ({ checkImage: vi.fn(async () => ({ ok: false as const, status: 0, message: '' })) }));
vi.mock('@/api/entries/check-image', () => checkImage);

const PIXELS = 'PIXELS-of-a-photo-31f';
const now = new Date(2026, 2, 10, 12, 0);

let open: OpenReplica;
let store: ReturnType<typeof freshStore>;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeEach(async () => {
  vi.stubGlobal('navigator', { onLine: true });
  store = freshStore();
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

function server(answer: (request: TransportRequest) => TransportResponse) {
  const key = testKey();
  const fake = fakeTransport(answer);
  configureOutbox({ ...store, getKey: async () => key, transport: fake.transport, apiBase: () => '/api', pageOnly: true, sink: replicaOutcomeSink, random: () => 0 });
  return fake;
}

const journalDocs = async (): Promise<JournalDoc[]> => (await open.db.journal.find().exec()).map((d) => d.toJSON() as JournalDoc);
const fileDocs = async (): Promise<FileDoc[]> => (await open.db.files.find().exec()).map((d) => d.toJSON() as unknown as FileDoc);

/** A server that keeps the client's id and lists the photo under its own file id. */
function keepingServer(photo: File, serverFileId: string, overrides: Parameters<typeof serverJournalRow>[1] = {}) {
  return (request: TransportRequest): TransportResponse => ({
    status: 201,
    body: {
      success: true,
      data: serverJournalRow(sentId(request)!, {
        description: sentField(request, 'description'),
        files: [{ id: serverFileId, name: photo.name, mime: 'image/png', size: photo.size }],
        ...overrides,
      }),
    },
  });
}

describe('a create the server kept under the client id', () => {
  it('becomes the server’s copy in place: one document, synced, not local-only, its photo moved to the server’s file id', async () => {
    const photo = pngFile('beach.png', PIXELS);
    const serverFileId = uuid(990);
    const fake = server(keepingServer(photo, serverFileId));
    const result = await saveEntry('journal', { description: 'at the beach', files: [photo] }, { now });
    const id = result.ok ? result.id : '';
    expect((await fileDocs()).map((f) => f.kind)).toEqual(['local']);

    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    // Wait until the outcome has settled the document.
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ sync_state: 'synced', local_only: false }));
    expect(sentId(fake.sent[0]!.request)).toBe(id);
    const docs = await journalDocs();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ id, local_only: false, sync_state: 'synced', sync_outbox_id: null, description: 'at the beach' });
    expect(docs[0]!.files.map((f) => f.id)).toEqual([serverFileId]);
    // The photo's bytes, still encrypted in the replica, now under the server's file id.
    const files = await fileDocs();
    expect(files.map((f) => [f.id, f.kind])).toEqual([[fileCacheKey('journal', serverFileId), 'file']]);
    expect(new TextDecoder().decode(base64ToBytes(files[0]!.data!).slice(8))).toBe(PIXELS);
  });

  it('an answer that does not read as an entry (only its id) still settles the create in one write: never synced while "only on this device"', async () => {
    let online = false;
    server((request) => (online ? { status: 201, body: { success: true, data: { id: sentId(request) } } } : { status: 0, body: null }));
    const result = await saveEntry('journal', { description: 'kept by the server' }, { now });
    const entryId = result.ok ? result.id : '';
    expect(entryId).not.toBe('');
    const states: string[] = [];
    const watching = open.db.journal.findOne(entryId).$.subscribe((doc) => states.push(`${doc?.get('sync_state')} local_only=${doc?.get('local_only')}`));
    online = true;
    configureOutbox({ now: () => Date.now() + 10 * 60_000 });
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ sync_state: 'synced' }));
    watching.unsubscribe();
    expect(await journalDocs()).toEqual([expect.objectContaining({ id: entryId, description: 'kept by the server', local_only: false, sync_outbox_id: null })]);
    expect(states[0]).toBe('pending local_only=true');
    expect(states).not.toContain('synced local_only=true');
  });

  it('the device’s clock says nothing against the server’s: a created document takes the server’s row even when the device runs ahead', async () => {
    const photo = pngFile('p.png');
    server(keepingServer(photo, uuid(991), { description: 'as the server stored it' }));
    // The device believes it is 2030; the server's updated_at is 2026.
    const result = await saveEntry('journal', { description: 'written', files: [photo] }, { now: new Date(2030, 0, 1, 9, 0) });
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ sync_state: 'synced', local_only: false }));
    expect(await journalDocs()).toEqual([
      expect.objectContaining({ id: result.ok ? result.id : '', description: 'as the server stored it', local_only: false, updated_at: '2026-03-10T10:00:00.123456Z' }),
    ]);
  });

  it('a pull that parked the server’s row while the create was pending: still one document, the server’s, once delivered', async () => {
    const photo = pngFile('p.png', PIXELS);
    let online = false;
    const fake = server((request) => (online ? keepingServer(photo, uuid(992))(request) : { status: 0, body: null }));
    const result = await saveEntry('journal', { description: 'on the bus', files: [photo] }, { now });
    const id = result.ok ? result.id : '';
    await waitUntil(() => expect(fake.sent).toHaveLength(1));

    // What the pull's modifier leaves on a pending document (src/data/replication/pull.ts): the local
    // text kept, the server's row parked in sync_server (same id: the server kept it).
    const { deleted_at: _gone, ...row } = serverJournalRow(id, { description: 'on the bus', files: [{ id: uuid(992), name: 'p.png', mime: 'image/png', size: photo.size }] });
    const parked = { ...row, sort_key: `${row.entry_date}T${row.entry_time}`, local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null };
    await (await open.db.journal.findOne(id).exec())!.incrementalPatch({ sync_server: parked });
    expect((await journalDocs()).map((d) => [d.id, d.sync_state, d.local_only])).toEqual([[id, 'pending', true]]);

    online = true;
    configureOutbox({ now: () => Date.now() + 10 * 60_000 });
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('synced'));
    const docs = await journalDocs();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ id, local_only: false, sync_server: null, entry_date: '2026-03-10' });
    expect((await fileDocs()).map((f) => f.id)).toEqual([fileCacheKey('journal', uuid(992))]);
  });

  it('applied again (a crash before it was marked applied), or with an older answer after a newer pull: nothing goes back', async () => {
    const photo = pngFile('p.png');
    server(keepingServer(photo, uuid(993)));
    const result = await saveEntry('journal', { description: 'first', files: [photo] }, { now });
    const id = result.ok ? result.id : '';
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('synced'));

    // A later pull: staff commented, the server's row moved on.
    await (await open.db.journal.findOne(id).exec())!.incrementalPatch({ comments_count: 1, updated_at: '2026-03-12T10:00:00.000000Z' });
    const stale = serverJournalRow(id, { description: 'first' });
    await settleDelivered({ collection: 'journal', id }, { state: 'synced', message: null, outbox_id: null }, { id, data: stale });
    const docs = await journalDocs();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ id, comments_count: 1, updated_at: '2026-03-12T10:00:00.000000Z', local_only: false });
  });

  it('a reply: one comment document under the client id, synced, not local-only', async () => {
    const { deleted_at: _gone, ...entry } = serverJournalRow(uuid(994));
    await open.db.journal.insert({ ...entry, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);
    const fake = server((request) => {
      const row: Comment = {
        id: sentId(request)!, updated_at: '2026-03-10T12:00:01.000001Z', deleted_at: null, entry_id: uuid(994), comment: sentField(request, 'comment'),
        reaction: null, created_at: '2026-03-10T12:00:01.000001Z', creator: { id: uuid(1), first_name: 'Kit', last_name: 'Doe', has_photo: false }, files: [],
      };
      return { status: 201, body: { success: true, data: row } };
    });
    const result = await postJournalComment(uuid(994), { comment: 'thank you' });
    const id = result.ok ? result.id : '';
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await open.db.comments.findOne(id).exec())?.sync_state).toBe('synced'));
    const comments = (await open.db.comments.find().exec()).map((c) => c.toJSON() as CommentDoc);
    expect(comments).toEqual([expect.objectContaining({ id, entry_type: 'journal', comment: 'thank you', local_only: false, created_at: '2026-03-10T12:00:01.000001Z' })]);
    expect(sentId(fake.sent[0]!.request)).toBe(id);
  });
});

describe('an outcome applied late or twice (two tabs, a heartbeat and a message at once)', () => {
  it('leaves a change made after it as it is: its words, waiting on its own entry', async () => {
    const photo = pngFile('p.png');
    const fake = server(keepingServer(photo, uuid(996)));
    const created = await saveEntry('journal', { description: 'first words', files: [photo] }, { now });
    const id = created.ok ? created.id : '';
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ sync_state: 'synced', local_only: false }));
    const answer = { id, data: serverJournalRow(id, { description: 'first words' }) };

    // Offline, the entry is edited: a new outbox entry waits.
    configureOutbox({ transport: { ...fake.transport, send: async () => ({ status: 0, body: null }) } });
    expect((await saveEntry('journal', { description: 'second words' }, { id, now })).ok).toBe(true);
    const edited = (await journalDocs())[0]!;
    expect(edited).toMatchObject({ description: 'second words', sync_state: 'pending' });
    expect(edited.sync_outbox_id).not.toBe(id);

    // The create's outcome once more (its entry's id is the create's Idempotency-Key, the document's id).
    const synced = { state: 'synced' as const, message: null, outbox_id: null };
    await replicaOutcomeSink.setSyncState({ collection: 'journal', id, outboxId: id }, synced, answer);
    await replicaOutcomeSink.setSyncState({ collection: 'journal', id, outboxId: id }, synced, null);
    expect((await journalDocs())[0]).toMatchObject({ description: 'second words', sync_state: 'pending', sync_outbox_id: edited.sync_outbox_id });
  });
});

describe('an edit the server took, while a pull had parked its copy from before the edit', () => {
  const entryId = uuid(995);
  const EARLIER = '2026-03-10T10:00:00.123456Z';
  const EDITED_AT = '2026-03-10T12:00:00.000001Z';

  /** A synced entry, edited offline, with the server's copy from before the edit parked by a pull. */
  async function editWaitingOnPulledCopy(parked: Partial<JournalDoc>) {
    const { deleted_at: _gone, ...row } = serverJournalRow(entryId, { description: 'my old words', updated_at: EARLIER });
    const stored = { ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null };
    await open.db.journal.insert({ ...stored, sync_server: null } as never);
    let online = false;
    const fake = server((request) =>
      online
        ? { status: 200, body: { success: true, data: serverJournalRow(entryId, { description: sentField(request, 'description') ?? '', updated_at: EDITED_AT }) } }
        : { status: 0, body: null },
    );
    const result = await saveEntry('journal', { description: 'my new words' }, { id: entryId, now });
    expect(result.ok).toBe(true);
    await waitUntil(() => expect(fake.sent).toHaveLength(1));
    // What a pull that fetched the row before the edit reached the server leaves (pull.ts's modifier).
    await (await open.db.journal.findOne(entryId).exec())!.incrementalPatch({ sync_server: { ...stored, ...parked } });
    const seen: string[] = [];
    const watching = open.db.journal.findOne(entryId).$.subscribe((doc) => seen.push(String(doc?.description)));
    online = true;
    configureOutbox({ now: () => Date.now() + 10 * 60_000 });
    expect((await waitForOutboxToDrain(5_000)).drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('synced'));
    watching.unsubscribe();
    return seen;
  }

  it('goes straight from the edit to the server’s answer: the old words never come back, not even for a moment', async () => {
    const seen = await editWaitingOnPulledCopy({});
    expect(seen).toContain('my new words');
    expect(seen).not.toContain('my old words');
    expect(await journalDocs()).toEqual([expect.objectContaining({ id: entryId, description: 'my new words', updated_at: EDITED_AT, sync_server: null })]);
  });

  it('a pulled copy newer than the answer (staff replied after the edit) is the one kept', async () => {
    const seen = await editWaitingOnPulledCopy({ description: 'my new words', comments_count: 2, updated_at: '2026-03-10T12:30:00.000000Z' });
    expect(seen).not.toContain('my old words');
    expect(await journalDocs()).toEqual([expect.objectContaining({ description: 'my new words', comments_count: 2, updated_at: '2026-03-10T12:30:00.000000Z', sync_server: null })]);
  });
});

