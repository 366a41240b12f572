/**
 * Documents on the device (issue 11) against the real server in-process (PGlite, demo seed): the
 * rows replicate into the encrypted `documents` collection; the keeper keeps their files encrypted
 * in chunks and drops them when a document is withdrawn (staff API) or switched off; a form
 * document's answers go through the real outbox, offline first, and settle; a refusal keeps the
 * draft; the reading position survives reopening the replica. Everything a test changes on the
 * server is a document the test shared itself, through the staff endpoints (never the database).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentMessages, type Document, type DocumentSubmission } from '@/contract/documents';
import type { EntryFile } from '@/contract/entries';
import type { Account } from '@/contract/users';
import { chunkCount, KEPT_CHUNK_BYTES, keptChunkId, readKeptFile } from '@/data/documents/kept-bytes';
import { freeAllKept, keepDocuments, keeperIdle, setKeepOffline } from '@/data/documents/keeper';
import { readDraft, saveDraft } from '@/data/drafts';
import { flushOutboxNowOnline, resetOutboxConfig, waitForOutboxToDrain } from '@/data/outbox/outbox';
import {
  documentFiles,
  documentMark,
  markDocumentOpened,
  readDocument,
  readDocumentState,
  rememberReadingPosition,
} from '@/data/replica/documents';
import { closeReplica, getReplication, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { DocumentDoc, FileDoc } from '@/data/replica/types';
import { localFileKey } from '@/entries/data/file-keys';
import { storeLocalFile } from '@/entries/data/local-files';
import { documentDraftKey, submitDocumentForm } from '@/features/documents/actions/submit-form';
import type { Client } from '../server/support/client';
import { signedIn } from '../server/support/session';
import { FakeClassifier, PDF, pngImage, postForm, type FormValue } from '../server/support/uploads';
import { WAIT_MS } from '../support/timeouts';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, uniqueName } from './fixtures';
import { outboxToServer } from './support/outbox-to-server';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

let sync: SyncTestServer;
let account: Account;
let ali: Client;
let jamie: Client;
let open: OpenReplica;
let online = true;
/** The Idempotency-Key of every submission request the server saw, with its document. */
let submissionKeys: { path: string; key: string }[] = [];
const TAG = `dc-${Date.now().toString(36)}`;
const key = randomKey();
const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key, replicate: true, replication: { liveTriggers: false, retryTime: 200 } };
let site: string;

beforeAll(async () => {
  sync = await startSyncServer({ imageClassifier: new FakeClassifier() });
  [ali, jamie] = await Promise.all([signedIn(sync.server, 'carer.ali'), signedIn(sync.server, 'jamie')]);
  account = await sync.signIn('jamie');
  const inner = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname.endsWith('/submissions') && (init?.method ?? 'GET') === 'POST') {
      submissionKeys.push({ path: url.pathname, key: new Headers(init?.headers).get('Idempotency-Key') ?? '' });
    }
    return inner(input, init);
  }) as typeof fetch;
});
afterAll(async () => {
  await sync?.close();
});
beforeEach(async () => {
  online = true;
  submissionKeys = [];
  outboxToServer(sync, () => online);
  site = uniqueName('site');
  open = await openReplicaForAccount(account, site, replica);
  await getReplication()!.awaitInitial();
  await keeperIdle(open);
});
afterEach(async () => {
  resetOutboxConfig();
  vi.unstubAllGlobals();
  await closeReplica();
});

const residentId = () => account.user.resident!.id;

// Staff, through the staff endpoints (docs/api.md).
async function share(fields: [string, FormValue][]): Promise<Document> {
  const res = await postForm<{ data: Document }>(sync.server.base, ali, '/api/v1/documents', fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}
const shareFile = (title: string, name: string, data: Buffer) => share([['kind', 'file'], ['title', `${TAG} ${title}`], ['resident_id', residentId()], ['category', 'Tests'], ['file', { name, data }]]);
async function shareReviewForm(title: string): Promise<Document> {
  const forms = (await jamie.get<{ data: { id: string; name: string }[] }>('/api/v1/forms?per_page=500')).body.data;
  const form = forms.find((f) => f.name === 'My views for my review meeting')!;
  const res = await ali.post<{ data: Document }>('/api/v1/documents', { kind: 'form', title: `${TAG} ${title}`, resident_id: residentId(), form_id: form.id });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}
const withdraw = async (id: string) => expect((await ali.request('DELETE', `/api/v1/documents/${id}`)).status).toBe(200);
const serverSubmissions = async (id: string) => (await ali.get<{ data: (DocumentSubmission & { deleted_at: string | null })[] }>(`/api/v1/documents/${id}/submissions?per_page=500`)).body.data;

async function pull(): Promise<void> {
  getReplication()!.reSync(['documents']);
  await getReplication()!.awaitInSync();
  await keeperIdle(open);
}

const rows = async (): Promise<DocumentDoc[]> =>
  (await open.db.documents.find().exec()).map((d) => d.toJSON() as unknown as DocumentDoc).filter((d) => d.kind !== ('state' as string));
const keptChunks = async (documentId: string) =>
  (await open.db.files.find({ selector: { id: { $gte: `kept:${documentId}:`, $lt: `kept:${documentId};` } } }).exec()).map((d) => d.toJSON() as FileDoc);
/** Everything the replica's IndexedDB databases hold, as text. */
const rawReplica = async () =>
  (await Promise.all((await listDatabases()).filter((n) => n.includes(open.name)).map((n) => dumpIndexedDb(n)))).map((d) => d.text).join('\n');

describe('documents on the device with the real server', () => {
  it("replicate into the encrypted documents collection: Jamie's own and his home's, every kind, with nothing personal in clear", async () => {
    const listed = (await jamie.get<{ data: Document[] }>('/api/v1/documents?per_page=500')).body.data;
    const mine = await rows();
    expect(mine.map((d) => d.id).sort()).toEqual(listed.map((d) => d.id).sort());
    const titles = mine.map((d) => d.title);
    for (const title of ['House rules', 'Welcome to Willow House', 'Trip to the seaside', 'Waves at Whitby', 'My views for my review meeting']) expect(titles).toContain(title);
    expect(titles).not.toContain('Wi-Fi and quiet hours'); // Sam's
    const book = mine.find((d) => d.title === 'Welcome to Willow House')!;
    expect(book).toMatchObject({ kind: 'book', version: 2, category: 'House information' });
    expect(book.book!.pages.map((p) => p.title)).toEqual(['Hello!', 'Your room', 'Meals', 'Who is who', 'Your voice matters']);
    // Never opened here: New, or Updated for one staff changed after sharing it.
    expect(documentMark(mine.find((d) => d.title === 'House rules')!, null)).toBe('new');
    expect(documentMark(book, null)).toBe('updated');

    const raw = await rawReplica();
    expect(raw.includes(book.id)).toBe(true);
    for (const clear of ['Welcome to Willow House', 'House information', 'Trip to the seaside', 'we are glad you are here', 'going_well', 'willow-house.png']) {
      expect(raw.includes(clear), 'in clear').toBe(false);
    }
  });

  it('keeps small documents by default, in encrypted chunks: the whole file reads back, nothing of it is in IndexedDB in clear', async () => {
    // A 2.5 MB PDF: three chunks, each fetched with its own range request.
    const marker = `${TAG}-the-secret-words-of-a-big-pdf`;
    const big = Buffer.concat([Buffer.from(`%PDF-1.4\n% ${marker}\n`), randomBytes(Math.floor(2.5 * 1024 * 1024)), Buffer.from(`\n% ${marker}\n%%EOF\n`)]);
    const doc = await shareFile('Big PDF', 'big.pdf', big);
    await pull();
    const state = await readDocumentState(open.db, doc.id);
    expect(state?.kept).toMatchObject({ complete: true, bytes: big.length, version: 1 });
    expect(state!.kept!.blobs).toEqual([{ id: doc.file!.id, mime: 'application/pdf', size: big.length, chunks: 3, stored: big.length }]);
    expect((await keptChunks(doc.id)).map((c) => c.id)).toEqual([0, 1, 2].map((i) => keptChunkId(doc.id, doc.file!.id, i)));
    const ranged = sync.requests.filter((r) => r.url.pathname.endsWith(`/documents/${doc.id}/blob`));
    expect(ranged.map((r) => r.status)).toEqual([206, 206, 206]);
    const back = await readKeptFile(open.db, doc.id, state!.kept!.blobs[0]!);
    expect(Buffer.from(await back!.arrayBuffer()).equals(big)).toBe(true);
    expect(chunkCount(big.length)).toBe(Math.ceil(big.length / KEPT_CHUNK_BYTES));
    const raw = await rawReplica();
    expect(raw.includes(marker), 'in clear').toBe(false);
    expect(raw.includes(Buffer.from(marker).toString('base64').slice(0, 24)), 'in clear').toBe(false);

    // Every demo document of Jamie's is small: all kept, pictures and video included.
    for (const row of (await rows()).filter((r) => !r.title.startsWith(TAG))) {
      const kept = (await readDocumentState(open.db, row.id))?.kept ?? null;
      if (documentFiles(row).length === 0) continue;
      expect(kept?.complete, row.title).toBe(true);
    }
  });

  it("Sam's demo text note is kept encrypted: IndexedDB holds none of its text", async () => {
    await closeReplica();
    const sam = await sync.signIn('sam');
    try {
      open = await openReplicaForAccount(sam, uniqueName('site'), replica);
      await getReplication()!.awaitInitial();
      await eventually(async () => (await rows()).some((d) => d.title === 'Wi-Fi and quiet hours'), WAIT_MS, "Sam's note");
      const note = (await rows()).find((d) => d.title === 'Wi-Fi and quiet hours')!;
      await keepDocuments(open);
      await keeperIdle(open);
      const kept = (await readDocumentState(open.db, note.id))!.kept!;
      expect(kept.complete).toBe(true);
      const text = await (await readKeptFile(open.db, note.id, kept.blobs[0]!))!.text();
      expect(text).toContain('Network: CedarLodge-Guest');
      const raw = await rawReplica();
      for (const clear of ['CedarLodge-Guest', 'games-room Wi-Fi', 'Wi-Fi and quiet hours', 'quiet hours at Cedar Lodge', Buffer.from('Wi-Fi and quiet hours at Cedar Lodge').toString('base64')]) {
        expect(raw.includes(clear), 'in clear').toBe(false);
      }
    } finally {
      await closeReplica();
      account = await sync.signIn('jamie');
      open = await openReplicaForAccount(account, site, replica);
    }
  });

  it('a document staff withdraw disappears from the device with its kept bytes (emptied, not just flagged)', async () => {
    const doc = await shareFile('Withdrawn soon', 'soon.pdf', PDF);
    await pull();
    expect(await readDocument(open.db, doc.id)).not.toBeNull();
    expect((await readDocumentState(open.db, doc.id))?.kept?.complete).toBe(true);
    await markDocumentOpened(open.db, { id: doc.id, version: 1 });
    expect(await keptChunks(doc.id)).toHaveLength(1);

    await withdraw(doc.id);
    await pull();
    expect(await readDocument(open.db, doc.id)).toBeNull();
    expect(await readDocumentState(open.db, doc.id)).toBeNull();
    expect(await keptChunks(doc.id)).toEqual([]);
    // RxDB keeps deleted documents as tombstones: the chunk's is empty (its data gone), not the file.
    const chunk = await open.db.files.storageInstance.findDocumentsById([keptChunkId(doc.id, doc.file!.id, 0)], true);
    expect(chunk).toHaveLength(1);
    expect(chunk[0]!._deleted).toBe(true);
    expect(JSON.stringify(chunk[0]).length).toBeLessThan(1_000);
  });

  it('Keep offline off frees one document; Free all frees everything and keeps it that way', async () => {
    const doc = await shareFile('Switch', 'switch.pdf', PDF);
    await pull();
    expect(await keptChunks(doc.id)).toHaveLength(1);
    await setKeepOffline(open, doc.id, false);
    await keeperIdle(open);
    expect(await keptChunks(doc.id)).toEqual([]);
    expect((await readDocumentState(open.db, doc.id))).toMatchObject({ keep: false, kept: null });
    await setKeepOffline(open, doc.id, true);
    await keeperIdle(open);
    expect(await keptChunks(doc.id)).toHaveLength(1);

    await freeAllKept(open);
    await keeperIdle(open);
    expect(await open.db.files.find({ selector: { id: { $gte: 'kept:', $lt: 'kept;' } } }).exec()).toEqual([]);
    for (const row of await rows()) expect((await readDocumentState(open.db, row.id))?.kept ?? null, row.title).toBeNull();
    // A new pull does not bring them back.
    await pull();
    expect(await open.db.files.find({ selector: { id: { $gte: 'kept:', $lt: 'kept;' } } }).exec()).toEqual([]);
  });

  it('a form filled in offline is sent once when back online (its client id, one key), and the submission comes back to the row', async () => {
    const form = await shareReviewForm('Offline form');
    await pull();
    await saveDraft(documentDraftKey(form.id), { answers: { going_well: 'draft' }, files: [] });
    const photo = await storeLocalFile(open.db, new Blob([new Uint8Array(pngImage(12, 12, [10, 120, 200]))], { type: 'image/png' }), 'proud.png');
    const signature = await storeLocalFile(open.db, new Blob([new Uint8Array(pngImage(40, 12, [0, 0, 0]))], { type: 'image/png' }), 'signature.png');
    const answers = {
      going_well: 'Football on Saturdays.',
      worries: null,
      happy_here: 'yes',
      happiness: 7,
      mood_colour: '#1e66f5',
      week: [{ day: 'Monday', best: 'PE', hardest: 'Maths' }],
      talk_about: ['school'],
      objectives: [],
      photo: { file_id: photo.id },
      extra_files: null,
      attend: true,
      signature: { file_id: signature.id },
    };

    online = false;
    const result = await submitDocumentForm(form.id, answers, [photo, signature]);
    expect(result).toMatchObject({ ok: true, queuedOffline: true });
    const id = result.ok ? result.id : '';
    expect(await readDocumentState(open.db, form.id)).toMatchObject({ sync_state: 'pending', outgoing: { id, answers } });
    flushOutboxNowOnline();
    await waitForOutboxToDrain(300);
    expect(await serverSubmissions(form.id)).toEqual([]);

    online = true;
    flushOutboxNowOnline();
    expect((await waitForOutboxToDrain(WAIT_MS)).drained).toBe(true);
    await eventually(async () => (await readDocumentState(open.db, form.id))?.sync_state === 'synced', WAIT_MS, 'the answers settled');
    const server = await serverSubmissions(form.id);
    expect(server.map((s) => s.id)).toEqual([id]);
    expect(server[0]!.answers).toMatchObject({ going_well: 'Football on Saturdays.', happy_here: 'yes', happiness: 7, talk_about: ['school'], attend: true });
    expect(server[0]!.files.map((f) => f.name).sort()).toEqual(['proud.png', 'signature.png']);
    const keys = submissionKeys.filter((k) => k.path.includes(form.id));
    expect(new Set(keys.map((k) => k.key)).size).toBe(1);
    expect(keys.length).toBeGreaterThanOrEqual(1);

    // At once from the answer, and again from the pull: the row's own submission.
    expect((await readDocument(open.db, form.id))?.submission?.id).toBe(id);
    await pull();
    const row = await readDocument(open.db, form.id);
    expect(row?.submission).toMatchObject({ id, answers: { going_well: 'Football on Saturdays.' } });
    expect(await readDocumentState(open.db, form.id)).toMatchObject({ outgoing: null, errors: null });
    // The draft and the files kept for sending are gone; the answer's files are kept as the document's.
    expect(await readDraft(documentDraftKey(form.id))).toBeNull();
    expect((await open.db.files.findByIds([localFileKey(photo.id), localFileKey(signature.id)]).exec()).size).toBe(0);
    await eventually(async () => (await readDocumentState(open.db, form.id))?.kept?.complete === true, WAIT_MS, 'the answer files kept');
  });

  it('a refused form (422) keeps the draft and the files, with the server’s field errors for the questions', async () => {
    const form = await shareReviewForm('Refused form');
    await pull();
    const draft = { answers: { going_well: 'Keep me' }, files: [] as EntryFile[] };
    await saveDraft(documentDraftKey(form.id), draft);
    const signature = await storeLocalFile(open.db, new Blob([new Uint8Array(pngImage(40, 12, [0, 0, 0]))], { type: 'image/png' }), 'signature.png');
    const answers = { going_well: 'Keep me', happy_here: 'no', signature: { file_id: signature.id } };

    online = false;
    const result = await submitDocumentForm(form.id, answers, [signature]);
    expect(result.ok).toBe(true);
    // Sent meanwhile from elsewhere (another device): the server already has one.
    const elsewhere = await postForm(sync.server.base, jamie, `/api/v1/documents/${form.id}/submissions`, [
      ['answers', JSON.stringify({ going_well: 'From the tablet', happy_here: 'yes' })],
      ['files[signature]', { name: 's.png', data: pngImage(20, 10, [0, 0, 0]) }],
    ]);
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(201);

    online = true;
    flushOutboxNowOnline();
    await waitForOutboxToDrain(WAIT_MS);
    await eventually(async () => (await readDocumentState(open.db, form.id))?.sync_state === 'failed', WAIT_MS, 'the refusal');
    const state = await readDocumentState(open.db, form.id);
    expect(state).toMatchObject({ sync_message: documentMessages.alreadySubmitted, errors: { answers: [documentMessages.alreadySubmitted] }, outgoing: { answers } });
    expect(await readDraft(documentDraftKey(form.id))).toEqual(draft);
    expect((await open.db.files.findByIds([localFileKey(signature.id)]).exec()).size).toBe(1);
    expect((await serverSubmissions(form.id)).map((s) => s.answers.going_well)).toEqual(['From the tablet']);
  });

  it('the reading position and the version opened persist across closing and reopening the replica (encrypted)', async () => {
    const book = (await rows()).find((d) => d.title === 'Welcome to Willow House')!;
    const meals = book.book!.pages.find((p) => p.title === 'Meals')!;
    await rememberReadingPosition(open.db, book.id, meals.id);
    await markDocumentOpened(open.db, book);
    await closeReplica();
    open = await openReplicaForAccount(account, site, { ...replica, replicate: false });
    const state = await readDocumentState(open.db, book.id);
    expect(state?.reading?.page_id).toBe(meals.id);
    expect(state?.opened_version).toBe(book.version);
    expect(documentMark(book, state)).toBeNull();
    const raw = await rawReplica();
    expect(raw.includes(`"page_id":"${meals.id}"`), 'in clear').toBe(false);
    // (The schema names the fields; no stored document holds their values in clear.)
    expect(/"opened_version":\d/.test(raw)).toBe(false);
    expect(/"reading":\{"page_id"/.test(raw)).toBe(false);
  });
});
