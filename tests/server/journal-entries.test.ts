import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryLimits, entryMessages, journalEntryResponseSchema, journalPageSchema, type JournalEntry } from '../../src/contract/entries';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, jpegImage, PDF, pngImage, postForm, type FormValue } from './support/uploads';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let sam: Client;
let ali: Client;
let beth: Client;
const classifier = new FakeClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  [jamie, sam, ali, beth] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'sam'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.beth')]);
});
afterAll(async () => {
  await server?.close();
});

const ENTRIES = '/api/v1/projects/residents/journal/entries';
const PNG = pngImage(8, 8, [20, 120, 220]);
const JPEG = jpegImage(8, 8, [200, 40, 40]);
const file = (name: string, data: Buffer): FormValue => ({ name, data });
const create = (fields: [string, FormValue][], headers: Record<string, string> = {}, client = jamie) =>
  postForm<{ success: boolean; data: JournalEntry; errors?: Record<string, string[]> }>(server.base, client, ENTRIES, fields, headers);
const update = (id: string, fields: [string, FormValue][], client = jamie) =>
  postForm<{ success: boolean; data: JournalEntry; errors?: Record<string, string[]> }>(server.base, client, `${ENTRIES}/${id}?_method=PUT`, fields);
const entryCount = async () => Number((await server.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll().as('n')).where('resident_id', '=', ids.resident['demo/jamie']!).executeTakeFirstOrThrow()).n);

describe('POST journal entries (multipart)', () => {
  it('creates an entry with files, a drawing and shared_with[] repeated', async () => {
    const res = await create([
      ['description', 'Made a cake with Beth'],
      ['reaction', '😊'],
      ['entry_date', '2025-01-10'],
      ['entry_time', '16:30'],
      ['shared_with[]', ids.user['demo/carer.ali']!],
      ['shared_with[]', ids.user['demo/carer.beth']!],
      ['files[0]', file('cake.png', PNG)],
      ['files[1]', file('recipe.pdf', PDF)],
      ['canvas', file('blob', PNG)],
    ]);
    expect(res.status).toBe(201);
    const entry = journalEntryResponseSchema.parse(res.body).data;
    expect(entry).toMatchObject({ description: 'Made a cake with Beth', reaction: '😊', entry_date: '2025-01-10', entry_time: '16:30', resident_id: ids.resident['demo/jamie'], comments_count: 0 });
    expect(entry.creator.id).toBe(ids.user['demo/jamie']);
    expect(entry.shared_with.sort()).toEqual([ids.user['demo/carer.ali'], ids.user['demo/carer.beth']].sort());
    expect(entry.files.map((f) => [f.name, f.mime, f.size])).toEqual([['cake.png', 'image/png', PNG.length], ['recipe.pdf', 'application/pdf', PDF.length]]);
    expect(entry.canvas).toMatchObject({ mime: 'image/png', size: PNG.length });
    // Stored outside the database under a server-made name.
    const rows = await server.db.selectFrom('entry_files').select(['storage_key', 'name']).where('entry_id', '=', entry.id).execute();
    expect(rows.every((r) => /^[0-9a-f]{32}$/.test(r.storage_key))).toBe(true);
    const shown = await jamie.get<{ data: JournalEntry & { comments: unknown[] } }>(`${ENTRIES}/${entry.id}?relations[0]=files&relations[1]=comments`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.files).toHaveLength(2);
    expect(shown.body.data.comments).toEqual([]);
  });

  it('accepts JSON without files and `shared_with` repeated', async () => {
    const json = await jamie.post<{ data: JournalEntry }>(ENTRIES, { description: 'Plain JSON entry', shared_with: [ids.user['demo/carer.dan']] });
    expect(json.status).toBe(201);
    expect(json.body.data.shared_with).toEqual([ids.user['demo/carer.dan']]);
    const repeated = await create([['reaction', '😴'], ['shared_with', ids.user['demo/carer.ali']!], ['shared_with', ids.user['demo/carer.dan']!]]);
    expect(repeated.status).toBe(201);
    expect(repeated.body.data.shared_with).toHaveLength(2);
    expect(repeated.body.data.description).toBeNull();
  });

  it('answers 422 with field errors for every rule of SPEC §5', async () => {
    const nothing = await create([['description', '   ']]);
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors?.description).toEqual([entryMessages.nothingToSave]);

    const long = await create([['description', 'x'.repeat(entryLimits.descriptionMaxLength + 1)]]);
    expect(long.status).toBe(422);
    expect(long.body.errors?.description).toEqual([entryMessages.descriptionTooLong]);

    const future = await create([['description', 'From the future'], ['entry_date', '2199-01-01'], ['entry_time', '10:00']]);
    expect(future.status).toBe(422);
    expect(future.body.errors?.entry_date).toEqual([entryMessages.dateInFuture]);
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    const inAnHour = await create([['description', 'In an hour'], ['entry_date', soon.toISOString().slice(0, 10)], ['entry_time', '23:59']]);
    expect(inAnHour.status).toBe(422);

    const many = await create([['description', 'Too many'], ...Array.from({ length: entryLimits.maxFiles + 1 }, (_, i): [string, FormValue] => [`files[${i}]`, file(`p${i}.png`, PNG)])]);
    expect(many.status).toBe(422);
    expect(many.body.errors?.files).toEqual([entryMessages.tooManyFiles]);

    const textAsPng = await create([['description', 'Fake png'], ['files[0]', file('photo.png', Buffer.from('just some text, not an image'))]]);
    expect(textAsPng.status).toBe(422);
    expect(textAsPng.body.errors?.files).toEqual(['File type not allowed']);
    expect(textAsPng.body.errors?.['files.0']).toEqual(['File type not allowed']);

    const pngAsExe = await create([['description', 'Exe'], ['files[0]', file('photo.exe', PNG)]]);
    expect(pngAsExe.status).toBe(422);
    expect(pngAsExe.body.errors?.files).toEqual(['File type not allowed']);

    const jpegAsPng = await create([['description', 'Mismatch'], ['files[0]', file('photo.png', JPEG)]]);
    expect(jpegAsPng.status).toBe(422);

    const canvasNotPng = await create([['description', 'Canvas'], ['canvas', file('drawing.png', JPEG)]]);
    expect(canvasNotPng.status).toBe(422);
    expect(canvasNotPng.body.errors?.canvas).toEqual(['File type not allowed']);

    const strangers = await create([['description', 'Share'], ['shared_with[]', ids.user['demo/carer.chris']!]]);
    expect(strangers.status).toBe(422);
    expect(strangers.body.errors?.shared_with).toBeDefined();
    const otherTenant = await create([['description', 'Share'], ['shared_with[]', ids.user['northfield/carer.jo']!]]);
    expect(otherTenant.status).toBe(422);

    const big = await create([['description', 'Big'], ['files[0]', file('big.pdf', Buffer.concat([PDF, Buffer.alloc(entryLimits.maxFileBytes)]))]]);
    expect(big.status).toBe(413);
    expect(big.body.errors?.files).toEqual([entryMessages.fileTooLarge]);

    classifier.flag(JPEG);
    const flagged = await create([['description', 'Photo'], ['files[0]', file('photo.jpg', JPEG)]]);
    expect(flagged.status).toBe(422);
    expect(flagged.body.errors?.files).toEqual([entryMessages.imageInappropriate]);
    classifier.flagged.clear();
  });

  it('an Idempotency-Key replay creates one entry, also when sent concurrently', async () => {
    const before = await entryCount();
    const fields: [string, FormValue][] = [['description', 'Replayed entry'], ['files[0]', file('a.png', PNG)], ['shared_with[]', ids.user['demo/carer.ali']!]];
    const first = await create(fields, { [IDEMPOTENCY_HEADER]: 'journal-key-1' });
    const second = await create(fields, { [IDEMPOTENCY_HEADER]: 'journal-key-1' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    // Same key, same fields, other file bytes: a different request.
    const other = await create([['description', 'Replayed entry'], ['files[0]', file('a.png', pngImage(9, 9, [1, 2, 3]))], ['shared_with[]', ids.user['demo/carer.ali']!]], { [IDEMPOTENCY_HEADER]: 'journal-key-1' });
    expect(other.status).toBe(422);
    const concurrent = await Promise.all(Array.from({ length: 4 }, () => create([['description', 'Concurrent'], ['files[0]', file('b.png', PNG)]], { [IDEMPOTENCY_HEADER]: 'journal-key-2' })));
    expect(concurrent.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(concurrent.map((r) => r.body.data.id)).size).toBe(1);
    expect(await entryCount()).toBe(before + 2);
  });

  it('updates with _method=PUT: fields replaced, files added and removed, drawing replaced and removed', async () => {
    const created = (await create([['description', 'Before'], ['files[0]', file('one.png', PNG)], ['files[1]', file('two.pdf', PDF)], ['canvas', file('c.png', PNG)]])).body.data;
    const [one] = created.files;
    const res = await update(created.id, [['description', 'After'], ['remove_files[]', one!.id], ['files[0]', file('three.jpg', JPEG)], ['canvas', file('c2.png', pngImage(4, 4, [0, 0, 0]))]]);
    expect(res.status).toBe(200);
    expect(res.body.data.description).toBe('After');
    expect(res.body.data.files.map((f) => f.name)).toEqual(['two.pdf', 'three.jpg']);
    expect(res.body.data.canvas!.id).not.toBe(created.canvas!.id);
    const removed = await postForm<{ data: JournalEntry }>(server.base, jamie, `${ENTRIES}/${created.id}`, [['_method', 'PUT'], ['remove_canvas', '1']]);
    expect(removed.status).toBe(200);
    expect(removed.body.data.canvas).toBeNull();
    expect(removed.body.data.description).toBe('After');
    const tooMany = await update(created.id, Array.from({ length: entryLimits.maxFiles - 1 }, (_, i): [string, FormValue] => [`files[${i}]`, file(`x${i}.png`, PNG)]));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors?.files).toEqual([entryMessages.tooManyFiles]);
    const empty = await update(created.id, [['description', ''], ['remove_files[]', created.files[1]!.id]]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors?.description).toEqual([entryMessages.nothingToSave]);
    const noOverride = await postForm(server.base, jamie, `${ENTRIES}/${created.id}`, [['description', 'x']]);
    expect(noOverride.status).toBe(405);
  });
});

describe('who sees what', () => {
  it('sam gets 404 for every entry, comment and file of jamie and his list has none of them', async () => {
    const entry = (await create([['description', 'Private to Jamie'], ['files[0]', file('p.png', PNG)]])).body.data;
    const comment = await jamie.post<{ data: { id: string } }>(`${ENTRIES}/comments`, { entry_id: entry.id, comment: 'note to self' });
    expect(comment.status).toBe(201);
    expect((await sam.get(`${ENTRIES}/${entry.id}`)).status).toBe(404);
    expect((await sam.get(`${ENTRIES}/${entry.id}/comments`)).status).toBe(404);
    expect((await sam.get(`/api/v1/files/view?file_id=${entry.files[0]!.id}&module=journal`)).status).toBe(404);
    expect((await postForm(server.base, sam, `${ENTRIES}/${entry.id}?_method=PUT`, [['description', 'hijack']])).status).toBe(404);
    expect((await postForm(server.base, sam, `${ENTRIES}/comments/${comment.body.data.id}?_method=PUT`, [['comment', 'hijack']])).status).toBe(404);
    const list = journalPageSchema.parse((await sam.get(`${ENTRIES}?per_page=500`)).body);
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((e) => e.resident_id === ids.resident['demo/sam'])).toBe(true);
    // Staff of the same home, not shared with: 404 as well.
    expect((await beth.get(`/api/v1/files/view?file_id=${entry.files[0]!.id}&module=journal`)).status).toBe(404);
    expect((await beth.get(`${ENTRIES}/${entry.id}/comments`)).status).toBe(404);
  });

  it('staff read only the entries shared with them', async () => {
    const shared = (await create([['description', 'For Ali only'], ['shared_with[]', ids.user['demo/carer.ali']!]])).body.data;
    expect((await ali.get(`${ENTRIES}/${shared.id}`)).status).toBe(200);
    expect((await beth.get(`${ENTRIES}/${shared.id}`)).status).toBe(404);
    const aliList = journalPageSchema.parse((await ali.get(`${ENTRIES}?per_page=500`)).body);
    expect(aliList.data.length).toBeGreaterThan(0);
    expect(aliList.data.every((e) => e.shared_with.includes(ids.user['demo/carer.ali']!))).toBe(true);
    expect(aliList.data.some((e) => e.description === 'Ali, can we talk about the football trials tomorrow?')).toBe(true);
  });
});

describe('GET journal entries: search, filters, sort, checkpoints', () => {
  it('search_term is a case-insensitive substring with wildcards escaped', async () => {
    await create([['description', 'Got 100% on my spelling test']]);
    const hits = journalPageSchema.parse((await jamie.get(`${ENTRIES}?search_term=${encodeURIComponent('100%')}`)).body);
    expect(hits.data.map((e) => e.description)).toEqual(['Got 100% on my spelling test']);
    const pct = journalPageSchema.parse((await jamie.get(`${ENTRIES}?search_term=${encodeURIComponent('%')}`)).body);
    expect(pct.data.every((e) => e.description!.includes('%'))).toBe(true);
    const word = journalPageSchema.parse((await jamie.get(`${ENTRIES}?search_term=PANCAKES`)).body);
    expect(word.data).toHaveLength(1);
  });

  it('filters by entry_date and reaction, sorts newest first by default', async () => {
    await create([['description', 'Old one'], ['entry_date', '2020-02-02'], ['entry_time', '08:00']]);
    await create([['description', 'Old two'], ['entry_date', '2020-02-02'], ['entry_time', '21:00']]);
    const day = journalPageSchema.parse((await jamie.get(`${ENTRIES}?filters[0][0]=entry_date&filters[0][1]=%3D&filters[0][2]=2020-02-02`)).body);
    expect(day.data.map((e) => e.description)).toEqual(['Old two', 'Old one']);
    const asc = journalPageSchema.parse((await jamie.get(`${ENTRIES}?filters[0][0]=entry_date&filters[0][1]=%3D&filters[0][2]=2020-02-02&sort[0][0]=entry_time&sort[0][1]=asc`)).body);
    expect(asc.data.map((e) => e.description)).toEqual(['Old one', 'Old two']);
    const all = journalPageSchema.parse((await jamie.get(`${ENTRIES}?per_page=500`)).body);
    const keys = all.data.map((e) => `${e.entry_date} ${e.entry_time}`);
    expect(keys).toEqual([...keys].sort().reverse());
    const football = journalPageSchema.parse((await jamie.get(`${ENTRIES}?filters[0][0]=reaction&filters[0][1]=%3D&filters[0][2]=${encodeURIComponent('⚽')}`)).body);
    expect(football.data).toHaveLength(1);
    expect((await jamie.get(`${ENTRIES}?filters[0][0]=password&filters[0][1]=%3D&filters[0][2]=x`)).status).toBe(422);
  });

  it('checkpoint mode walks by (updated_at, id) and soft deletes come as tombstones', async () => {
    const first = journalPageSchema.parse((await jamie.get(`${ENTRIES}?sort[0][0]=updated_at&sort[0][1]=asc&per_page=500`)).body);
    const last = first.meta.checkpoint!;
    const fresh = (await create([['description', 'After the checkpoint']])).body.data;
    await server.db.updateTable('journal_entries').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', fresh.id).execute();
    const q = `checkpoint[updated_at]=${encodeURIComponent(last.updated_at)}&checkpoint[id]=${last.id}`;
    const without = journalPageSchema.parse((await jamie.get(`${ENTRIES}?${q}`)).body);
    expect(without.data.map((e) => e.id)).not.toContain(fresh.id);
    const withTrashed = journalPageSchema.parse((await jamie.get(`${ENTRIES}?${q}&with_trashed=1`)).body);
    const tomb = withTrashed.data.find((e) => e.id === fresh.id);
    expect(tomb?.deleted_at).toBeTruthy();
    expect((await jamie.get(`${ENTRIES}/${fresh.id}`)).status).toBe(404);
  });
});
