import { firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replicaOutcomeSink } from '@/app/start-outbox-side';
import { entryMessages } from '@/contract/entries';
import { chosenMessages } from '@/contract/messages';
import { entryEditDraftKey } from '@/entries/data/draft-keys';
import { refusedFields$ } from '@/entries/data/refused-fields';
import { saveEntry } from '@/entries/data/save-entry';
import { settleDelivered } from '@/entries/data/settle';
import { localFileKey } from '@/entries/data/file-keys';
import { voiceEntries$ } from '@/entries/hooks/entry-queries';
import { journalEntries$ } from '@/entries/hooks/journal-entries-query';
import { configureOutbox, countUnsent, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import type { TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { JournalDoc } from '@/data/replica/types';
import { saveJournalEntry } from '@/features/journal/actions/save-journal-entry';
import { postJournalComment } from '@/features/journal/actions/post-journal-comment';
import { updateComment } from '@/entries/data/comments';
import { saveVoiceEntry } from '@/features/voice/actions/save-voice-entry';
import { account, pngFile, sentField, sentId, serverJournalRow, uuid } from './entries-support';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, uniqueName } from './fixtures';
import { dumpDatabase, fakeTransport, freshStore, testKey } from './outbox-support';
import { waitUntil } from '../support/wait';

const checkImage = vi.hoisted(() => ({
  checkImage: vi.fn(async (_residentId: string, _image: Blob, _name?: string): Promise<unknown> => ({ ok: false, status: 0, message: '' })),
}));
vi.mock('@/api/entries/check-image', () => checkImage);

const CANARY = 'CANARY-what-a-child-wrote-5e1f';
const PIXEL_CANARY = 'CANARY-PIXELS-77aa';
const now = new Date(2026, 2, 10, 12, 0);

let open: OpenReplica;
let store: ReturnType<typeof freshStore>;
let online = true;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeEach(async () => {
  online = true;
  vi.stubGlobal('navigator', { get onLine() { return online; } });
  // Offline image checks by default (status 0): queued, the server checks.
  checkImage.checkImage.mockReset().mockImplementation(async () => ({ ok: false, status: 0, message: '' }));
  store = freshStore();
  open = await openReplicaForAccount(account, uniqueName('site'), replica);
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

function server(answer: (request: TransportRequest, index: number) => TransportResponse | Promise<TransportResponse>) {
  const key = testKey();
  const fake = fakeTransport(answer);
  configureOutbox({ ...store, getKey: async () => key, transport: fake.transport, apiBase: () => '/api', pageOnly: true, sink: replicaOutcomeSink });
  return fake;
}

const journalDocs = async (): Promise<JournalDoc[]> => (await open.db.journal.find().exec()).map((d) => d.toJSON() as JournalDoc);
/** The field errors kept for the journal entry's edit form (what its form shows beside its fields). */
const refusalFor = (id: string) => firstValueFrom(refusedFields$(open.db, entryEditDraftKey('journal', id)));
const NOT_IN_HOME = 'You can only share with people who work in your home';

describe('saving entries: optimistic, queued, encrypted, settled once', () => {
  it('refuses invalid drafts with the contract messages and queues nothing', async () => {
    server(() => ({ status: 201, body: { success: true, data: {} } }));
    const empty = await saveJournalEntry({ description: '' });
    expect(empty).toEqual({ ok: false, message: entryMessages.nothingToSave, errors: { description: [entryMessages.nothingToSave] } });
    const voice = await saveVoiceEntry({ description: 'x' });
    expect(voice.ok === false && voice.errors.category_id).toEqual([entryMessages.categoryRequired]);
    expect(await journalDocs()).toEqual([]);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('offline: shows at once as pending with its text; stored forms (outbox, replica) hold no plaintext', async () => {
    online = false;
    const fake = server(() => ({ status: 0, body: null }));
    const result = await saveEntry(
      'journal',
      { description: `${CANARY} at the beach`, files: [pngFile('beach.png', PIXEL_CANARY)], canvas: pngFile('drawing.png', PIXEL_CANARY) },
      { now },
    );
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    expect(checkImage.checkImage).not.toHaveBeenCalled(); // offline: queued anyway, the server checks at send

    const page = await firstValueFrom(journalEntries$(open.db, '', 10));
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id, description: `${CANARY} at the beach`, sync_state: 'pending', local_only: true, entry_date: '2026-03-10', entry_time: '12:00' });
    // The photo and the drawing are viewable offline from the encrypted files collection.
    const [photo] = page.items[0]!.files;
    expect(await open.db.files.findOne(localFileKey(photo!.id)).exec()).not.toBeNull();
    expect(await open.db.files.findOne(localFileKey(page.items[0]!.canvas!.id)).exec()).not.toBeNull();

    await waitUntil(() => expect(fake.sent.length).toBeGreaterThan(0));
    expect(await countUnsent()).toMatchObject({ pending: 1 });
    const outbox = JSON.stringify(await dumpDatabase(store.indexedDB, store.databaseName), (_k, v: unknown) =>
      v instanceof Uint8Array ? new TextDecoder('latin1').decode(v) : v,
    );
    expect(outbox.length).toBeGreaterThan(100);
    expect(outbox).not.toContain(CANARY);
    expect(outbox).not.toContain(PIXEL_CANARY);
    expect(outbox).not.toContain('beach');

    const replicaDbs = (await listDatabases()).filter((name) => name.includes(open.name));
    expect(replicaDbs.length).toBeGreaterThan(0);
    for (const name of replicaDbs) {
      const dump = await dumpIndexedDb(name);
      expect(dump.text).not.toContain(CANARY);
      expect(dump.text).not.toContain('beach');
    }
  });

  it('sends SPEC §5 multipart with the client id on create: nulls skipped, shared_with[] repeated, files indexed, canvas part; updates POST with _method=PUT and no id', async () => {
    // A server that keeps the client's id (src/contract/entries.ts clientIdSchema).
    const fake = server((request) =>
      request.url.includes('_method=PUT')
        ? { status: 200, body: { success: true, data: serverJournalRow(request.url.split('/').pop()!.split('?')[0]!, { description: 'edited', updated_at: '2026-03-11T10:00:00.123456Z' }) } }
        : { status: 201, body: { success: true, data: serverJournalRow(sentId(request)!) } },
    );
    const created = await saveJournalEntry({
      description: 'hello',
      reaction: null,
      sharedWith: [uuid(11), uuid(12)],
      files: [pngFile('one.png'), pngFile('two.png')],
      canvas: pngFile('canvas.png', 'strokes'),
      entryDate: '2026-03-09',
      entryTime: '08:15',
    });
    expect(created.ok).toBe(true);
    const localId = created.ok ? created.id : '';
    await waitUntil(() => expect(fake.sent).toHaveLength(1));
    const first = fake.sent[0]!;
    expect(first.request.method).toBe('POST');
    expect(first.request.url).toBe('/api/v1/projects/residents/journal/entries');
    expect(first.request.headers['Idempotency-Key']).toBe(localId);
    const names = first.entries!.map(([name]) => name);
    expect(names).toEqual([
      'id', 'description', 'shared_with[]', 'shared_with[]', 'shared_with_management', 'entry_date', 'entry_time', 'device_id', 'files[0]', 'files[1]', 'canvas',
    ]);
    // The create carries the optimistic document's id.
    expect(first.entries![0]).toEqual(['id', localId]);
    expect(names).not.toContain('reaction');
    expect(first.entries!.filter(([n]) => n === 'shared_with[]').map(([, v]) => v)).toEqual([uuid(11), uuid(12)]);
    expect(first.entries!.find(([n]) => n === 'canvas')![1]).toMatchObject({ name: 'canvas.png', type: 'image/png' });

    // Settled in place: one document, the server's copy, under the client's id.
    await waitUntil(async () => expect((await journalDocs()).map((d) => [d.id, d.sync_state, d.local_only])).toEqual([[localId, 'synced', false]]));
    expect((await journalDocs())[0]).toMatchObject({ description: 'from the server', sync_server: null });

    const updated = await saveJournalEntry({ description: 'edited', removeFiles: [uuid(77)], removeCanvas: true }, localId);
    expect(updated).toMatchObject({ ok: true, id: localId });
    await waitUntil(() => expect(fake.sent).toHaveLength(2));
    const second = fake.sent[1]!;
    expect(second.request.method).toBe('POST');
    expect(second.request.url).toBe(`/api/v1/projects/residents/journal/entries/${localId}?_method=PUT`);
    expect(second.entries).toContainEqual(['_method', 'PUT']);
    expect(second.entries).toContainEqual(['remove_canvas', '1']);
    expect(second.entries).toContainEqual(['description', 'edited']);
    expect(second.entries!.map(([name]) => name)).not.toContain('id');
    // Made from the server's copy the device had (edit conflicts, issue 12), by this device.
    expect(second.entries).toContainEqual(['base_updated_at', serverJournalRow(localId).updated_at]);
    expect(second.entries).toContainEqual(['device_id', first.entries!.find(([n]) => n === 'device_id')![1]]);
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ id: localId, description: 'edited', sync_state: 'synced' }));
    expect(await journalDocs()).toHaveLength(1);
  });

  it('a create answered under the server’s own id (queued by an older build, without an id) is swapped for the server’s copy exactly once, even when replayed', async () => {
    const serverId = uuid(901);
    // A server honouring the Idempotency-Key: the first answer is lost on the way back, the repeat gets the stored one.
    const created = new Map<string, string>();
    let calls = 0;
    const fake = server((request) => {
      calls += 1;
      const key = request.headers['Idempotency-Key']!;
      if (!created.has(key)) created.set(key, serverId);
      if (calls === 1) return { status: 0, body: null };
      return { status: 201, body: { success: true, data: serverJournalRow(created.get(key)!, { description: CANARY }) } };
    });
    configureOutbox({ random: () => 0, now: () => Date.now() + (calls > 0 ? 10 * 60_000 : 0) });
    const result = await saveJournalEntry({ description: CANARY, files: [pngFile('p.png')] });
    const localId = result.ok ? result.id : '';
    await waitUntil(() => expect(calls).toBe(1));
    expect((await journalDocs()).map((d) => [d.id, d.sync_state])).toEqual([[localId, 'pending']]);

    const { drained } = await waitForOutboxToDrain(5_000);
    expect(drained).toBe(true);
    await waitUntil(async () => expect((await journalDocs()).map((d) => d.id)).toEqual([serverId]));
    expect(fake.sent).toHaveLength(2);
    expect(created.size).toBe(1);
    const docs = await journalDocs();
    expect(docs[0]).toMatchObject({ id: serverId, description: CANARY, sync_state: 'synced', local_only: false });
    // Its pending photo is no longer a local file.
    expect((await open.db.files.find({ selector: { kind: 'local' } }).exec()).length).toBe(0);

    // The outcome applied again (a crash before it was marked applied): nothing changes.
    await settleDelivered(
      { collection: 'journal', id: localId },
      { state: 'synced', message: null, outbox_id: null },
      { id: serverId, data: serverJournalRow(serverId) },
    );
    expect((await journalDocs()).map((d) => d.id)).toEqual([serverId]);
  });

  it('422: the document is failed and the text is kept; an error of a field the form shows waits for it there', async () => {
    server(() => ({ status: 422, body: { success: false, message: entryMessages.imageInappropriate, errors: { files: [entryMessages.imageInappropriate] } } }));
    const result = await saveJournalEntry({ description: CANARY, files: [pngFile('p.png')] });
    const id = result.ok ? result.id : '';
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('failed'));
    const doc = (await journalDocs())[0]!;
    // Said beside the photos when the entry is opened again, so not in the message as well.
    expect(doc).toMatchObject({ id, description: CANARY, sync_message: entryMessages.postFailed });
    expect(await refusalFor(id)).toEqual({ outboxId: doc.sync_outbox_id, errors: { files: [entryMessages.imageInappropriate] } });
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 1 });
  });

  it('without a server message, the §8 text; editing a refused entry replaces its queued create, under the same id', async () => {
    let status = 400;
    const fake = server((request) =>
      status === 400 ? { status: 400, body: null } : { status: 201, body: { success: true, data: serverJournalRow(sentId(request)!, { description: 'second try' }) } },
    );
    const result = await saveJournalEntry({ description: 'first try' });
    const id = result.ok ? result.id : '';
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_message).toBe(entryMessages.postFailed));
    status = 201;
    const again = await saveJournalEntry({ description: 'second try' }, id);
    expect(again).toMatchObject({ ok: true, id });
    await waitUntil(async () => expect((await journalDocs()).map((d) => [d.id, d.sync_state, d.local_only])).toEqual([[id, 'synced', false]]));
    // The retry was a create (a new key) carrying the document's id, not an update of an id the server never had.
    expect(fake.sent[1]!.request.url).toBe('/api/v1/projects/residents/journal/entries');
    expect(fake.sent[1]!.request.headers['Idempotency-Key']).not.toBe(fake.sent[0]!.request.headers['Idempotency-Key']);
    expect(sentId(fake.sent[0]!.request)).toBe(id);
    expect(sentId(fake.sent[1]!.request)).toBe(id);
    expect(sentField(fake.sent[1]!.request, 'description')).toBe('second try');
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('online: an inappropriate image is refused before anything is queued', async () => {
    checkImage.checkImage.mockResolvedValueOnce({ ok: true, status: 200, data: { inappropriate: true } } as never);
    const fake = server(() => ({ status: 201, body: { success: true, data: {} } }));
    const result = await saveJournalEntry({ description: 'look', files: [pngFile('p.png')] });
    expect(result).toEqual({ ok: false, message: 'Image added is inappropriate', errors: { files: ['Image added is inappropriate'] } });
    expect(await journalDocs()).toEqual([]);
    expect(fake.sent).toHaveLength(0);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('online: an inappropriate drawing is refused on the canvas field before anything is queued', async () => {
    checkImage.checkImage.mockImplementation(async (_resident, _image, name) => ({ ok: true, status: 200, data: { inappropriate: name === 'canvas.png' } }));
    const fake = server(() => ({ status: 201, body: { success: true, data: {} } }));
    const canvas = pngFile('drawing.png', 'strokes');
    const result = await saveJournalEntry({ description: 'look', files: [pngFile('p.png')], canvas });
    expect(result).toEqual({ ok: false, message: entryMessages.imageInappropriate, errors: { canvas: [entryMessages.imageInappropriate] } });
    // The photo and the drawing were both checked, the drawing as a PNG named canvas.png.
    expect(checkImage.checkImage).toHaveBeenCalledTimes(2);
    expect(checkImage.checkImage).toHaveBeenLastCalledWith(account.user.resident.id, canvas, 'canvas.png');
    expect(await journalDocs()).toEqual([]);
    expect(fake.sent).toHaveLength(0);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('a closed conversation (locked_at): no change, reply or reply edit is queued', async () => {
    const fake = server(() => ({ status: 201, body: { success: true, data: {} } }));
    const { deleted_at: _gone, ...row } = serverJournalRow(uuid(904), { locked_at: '2026-03-10T11:00:00.000000Z', description: 'closed one' });
    await open.db.journal.insert({ ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);
    await open.db.comments.insert({
      id: uuid(905), updated_at: '2026-03-10T10:30:00.000000Z', entry_type: 'journal', entry_id: uuid(904), created_at: '2026-03-10T10:30:00.000000Z',
      local_only: false, comment: 'my reply', reaction: null, creator: { id: uuid(1), first_name: 'Kit', last_name: 'Doe', has_photo: false }, files: [],
      sync_state: 'synced', sync_message: null, sync_outbox_id: null,
    } as never);

    expect(await saveJournalEntry({ description: 'changed' }, uuid(904))).toEqual({ ok: false, message: entryMessages.locked, errors: {} });
    expect(await postJournalComment(uuid(904), { comment: 'one more' })).toEqual({ ok: false, message: entryMessages.locked, errors: {} });
    expect(await updateComment('journal', uuid(905), { comment: 'edited reply' })).toEqual({ ok: false, message: entryMessages.locked, errors: {} });
    expect((await journalDocs())[0]).toMatchObject({ description: 'closed one', sync_state: 'synced' });
    expect((await open.db.comments.find().exec()).map((c) => c.comment)).toEqual(['my reply']);
    expect(fake.sent).toHaveLength(0);
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 0 });
  });

  it('422 because staff closed the conversation while the change was queued: failed with the locked message, the text kept', async () => {
    // The server's shape: the generic message, the reason as a field error on locked_at.
    server(() => ({ status: 422, body: { success: false, message: 'Some details need fixing', errors: { locked_at: [entryMessages.locked] } } }));
    const { deleted_at: _gone, ...row } = serverJournalRow(uuid(906), { description: 'before' });
    await open.db.journal.insert({ ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);
    const result = await saveJournalEntry({ description: CANARY }, uuid(906));
    expect(result).toMatchObject({ ok: true, id: uuid(906) });
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('failed'));
    expect((await journalDocs())[0]).toMatchObject({ id: uuid(906), description: CANARY, sync_message: entryMessages.locked });
    expect(await countUnsent()).toEqual({ pending: 0, held: 0, failed: 1 });
  });

  it('422 on an edit: the words stay, each field error waits for the form; what has no field there is the message; saving again forgets them', async () => {
    let refusal: Record<string, string[]> | null = { 'shared_with.0': [NOT_IN_HOME] };
    server(() => (refusal ? { status: 422, body: { success: false, message: chosenMessages.validationFailed, errors: refusal } } : { status: 0, body: null }));
    const { deleted_at: _gone, ...row } = serverJournalRow(uuid(907), { description: 'before' });
    await open.db.journal.insert({ ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);

    expect(await saveJournalEntry({ description: CANARY, sharedWith: [uuid(77)] }, uuid(907))).toMatchObject({ ok: true });
    await waitUntil(async () => expect((await journalDocs())[0]?.sync_state).toBe('failed'));
    const refused = (await journalDocs())[0]!;
    expect(refused).toMatchObject({ description: CANARY, shared_with: [uuid(77)], sync_message: entryMessages.updateFailed });
    expect(await refusalFor(uuid(907))).toEqual({ outboxId: refused.sync_outbox_id, errors: { 'shared_with.0': [NOT_IN_HOME] } });

    // An error the form has no field for is the entry's message, beside those it has.
    refusal = { device_id: ['The device id is not valid'], 'shared_with.0': [NOT_IN_HOME] };
    await saveJournalEntry({ description: `${CANARY} again`, sharedWith: [uuid(77)] }, uuid(907));
    await waitUntil(async () => expect((await journalDocs())[0]).toMatchObject({ sync_state: 'failed', sync_message: 'The device id is not valid' }));
    expect((await refusalFor(uuid(907)))?.errors).toEqual(refusal);

    // Saved again: the refusal is over, whatever comes of this change.
    refusal = null;
    online = false;
    await saveJournalEntry({ description: `${CANARY} fixed`, sharedWith: [] }, uuid(907));
    expect(await refusalFor(uuid(907))).toBeNull();
    expect(await open.db.files.find({ selector: { kind: 'summary' } }).exec()).toEqual([]);
  });

  it('search runs on the device over the decrypted text; voice lists newest first', async () => {
    server(() => ({ status: 0, body: null }));
    online = false;
    await saveEntry('journal', { description: 'Went to the Café with Sam', entryDate: '2026-03-01', entryTime: '10:00' }, { now });
    await saveEntry('journal', { description: 'Football practice', entryDate: '2026-03-05', entryTime: '10:00' }, { now });
    await saveEntry('journal', { reaction: '😀', entryDate: '2026-03-07', entryTime: '10:00' }, { now });
    const all = await firstValueFrom(journalEntries$(open.db, '', 2));
    expect(all.items.map((d) => d.entry_date)).toEqual(['2026-03-07', '2026-03-05']);
    expect(all.hasMore).toBe(true);
    const found = await firstValueFrom(journalEntries$(open.db, 'cafe sam', 10));
    expect(found.items.map((d) => d.description)).toEqual(['Went to the Café with Sam']);
    expect((await firstValueFrom(journalEntries$(open.db, 'nothing-like-this', 10))).items).toEqual([]);

    await saveVoiceEntry({ description: 'older', categoryId: uuid(50) });
    await new Promise((r) => setTimeout(r, 5));
    await saveVoiceEntry({ description: 'newer', categoryId: uuid(51) });
    const voice = (await firstValueFrom(voiceEntries$(open.db, 100))).items;
    expect(voice.map((v) => [v.description, v.category_id])).toEqual([['newer', uuid(51)], ['older', uuid(50)]]);
    const firstPage = await firstValueFrom(voiceEntries$(open.db, 1));
    expect(firstPage.items.map((v) => v.description)).toEqual(['newer']);
    expect(firstPage.hasMore).toBe(true);
    expect((await firstValueFrom(voiceEntries$(open.db, 2))).hasMore).toBe(false);
  });

  it('a reply waits for its entry to exist on the server; then it is queued as multipart', async () => {
    online = false;
    const fake = server(() => ({ status: 0, body: null }));
    const local = await saveJournalEntry({ description: 'mine' });
    const reply = await postJournalComment(local.ok ? local.id : '', { comment: 'hi' });
    expect(reply.ok).toBe(false);
    const { deleted_at: _gone, ...row } = serverJournalRow(uuid(903));
    await open.db.journal.insert({ ...row, sort_key: '2026-03-10T09:30', local_only: false, sync_state: 'synced', sync_message: null, sync_outbox_id: null } as never);
    const sent = await postJournalComment(uuid(903), { comment: CANARY });
    expect(sent).toMatchObject({ ok: true, queuedOffline: true });
    const comments = (await open.db.comments.find().exec()).map((c) => c.toJSON());
    expect(comments).toMatchObject([{ entry_type: 'journal', entry_id: uuid(903), comment: CANARY, sync_state: 'pending' }]);
    await waitUntil(() => expect(fake.sent.some((s) => s.request.url.endsWith('/journal/entries/comments'))).toBe(true));
    const request = fake.sent.find((s) => s.request.url.endsWith('/journal/entries/comments'))!;
    // The create carries the comment document's id.
    expect(request.entries).toEqual([['id', sent.ok ? sent.id : ''], ['entry_id', uuid(903)], ['comment', CANARY]]);
    expect(comments[0]!.id).toBe(sent.ok ? sent.id : '');
  });
});
