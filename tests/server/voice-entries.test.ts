import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emojisPageSchema, entryMessages, voiceCategoriesPageSchema, voiceEntryResponseSchema, voicePageSchema, type VoiceEntry } from '../../src/contract/entries';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, jpegImage, PDF, pngImage, postForm, type FormValue } from './support/uploads';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let sam: Client;
const classifier = new FakeClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  [jamie, sam] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'sam')]);
});
afterAll(async () => {
  await server?.close();
});

const ENTRIES = '/api/v1/projects/residents/voices/entries';
const PNG = pngImage(8, 8, [20, 120, 220]);
const create = (fields: [string, FormValue][], client = jamie) =>
  postForm<{ data: VoiceEntry; errors?: Record<string, string[]> }>(server.base, client, ENTRIES, fields);

async function categories(client = jamie) {
  return voiceCategoriesPageSchema.parse((await client.get('/api/v1/projects/residents/voices/categories')).body).data;
}

describe('voice', () => {
  it('lists the four categories with a one-line description', async () => {
    const list = await categories();
    expect(list.map((c) => c.name)).toEqual(['Raise a concern', 'Make a complaint', 'Message staff', 'Share good news']);
    expect(list.every((c) => typeof c.description === 'string' && c.description.length > 10)).toBe(true);
  });

  it('creates with a category and files, filters by category, updates with _method=PUT', async () => {
    const good = (await categories()).find((c) => c.name === 'Share good news')!;
    const res = await create([['category_id', good.id], ['description', 'I passed my swimming badge'], ['files[0]', { name: 'badge.png', data: PNG }], ['shared_with[]', ids.user['demo/carer.ali']!]]);
    expect(res.status).toBe(201);
    const entry = voiceEntryResponseSchema.parse(res.body).data;
    expect(entry).toMatchObject({ category_id: good.id, description: 'I passed my swimming badge' });
    expect(entry.files).toHaveLength(1);
    const filtered = voicePageSchema.parse((await jamie.get(`${ENTRIES}?filters[0][0]=category_id&filters[0][1]=%3D&filters[0][2]=${good.id}`)).body);
    expect(filtered.data.map((e) => e.description)).toEqual(['I passed my swimming badge', 'I got a merit at school for my history project!']);
    const updated = await postForm<{ data: VoiceEntry }>(server.base, jamie, `${ENTRIES}/${entry.id}?_method=PUT`, [['description', 'I passed my 50m swimming badge']]);
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ description: 'I passed my 50m swimming badge', category_id: good.id });
    expect(updated.body.data.files).toHaveLength(1);
    const shown = await jamie.get<{ data: VoiceEntry & { comments: unknown[] } }>(`${ENTRIES}/${entry.id}?relations[0]=files&relations[1]=comments`);
    expect(shown.status).toBe(200);
    expect((await sam.get(`${ENTRIES}/${entry.id}`)).status).toBe(404);
    const samList = voicePageSchema.parse((await sam.get(ENTRIES)).body);
    expect(samList.data.every((e) => e.resident_id === ids.resident['demo/sam'])).toBe(true);
  });

  it('validates: category required, nothing to save, file type by content', async () => {
    const [concern] = await categories();
    const noCategory = await create([['description', 'Help']]);
    expect(noCategory.status).toBe(422);
    expect(noCategory.body.errors?.category_id).toEqual([entryMessages.categoryRequired]);
    const nothing = await create([['category_id', concern!.id]]);
    expect(nothing.body.errors?.description).toEqual([entryMessages.nothingToSave]);
    const html = await create([['category_id', concern!.id], ['description', 'x'], ['files[0]', { name: 'note.pdf', data: Buffer.from('<html><script>alert(1)</script>') }]]);
    expect(html.status).toBe(422);
    expect(html.body.errors?.files).toEqual(['File type not allowed']);
    const exe = await create([['category_id', concern!.id], ['description', 'x'], ['files[0]', { name: 'tool.exe', data: PDF }]]);
    expect(exe.body.errors?.files).toEqual(['File type not allowed']);
    const otherTenantCategory = await server.db.selectFrom('voice_categories').innerJoin('tenants', 'tenants.id', 'voice_categories.tenant_id').select('voice_categories.id').where('tenants.slug', '=', 'northfield').executeTakeFirst();
    if (otherTenantCategory) {
      const foreign = await create([['category_id', otherTenantCategory.id], ['description', 'x']]);
      expect(foreign.body.errors?.category_id).toEqual([entryMessages.categoryRequired]);
    }
    const jpeg = jpegImage(8, 8, [1, 1, 1]);
    classifier.flag(jpeg);
    const flagged = await create([['category_id', concern!.id], ['description', 'x'], ['files[0]', { name: 'a.jpeg', data: jpeg }]]);
    expect(flagged.body.errors?.files).toEqual([entryMessages.imageInappropriate]);
  });

  it('emojis: about two dozen, with names, as a list', async () => {
    const res = await jamie.get('/api/v1/tags/icons/emojis');
    expect(res.status).toBe(200);
    const page = emojisPageSchema.parse(res.body);
    expect(page.data.length).toBeGreaterThanOrEqual(20);
    expect(page.data[0]).toMatchObject({ emoji: '😊', name: 'Happy', position: 0 });
    // Every device shows them in one order: the positions, not the (random) ids.
    const positions = page.data.map((e) => e.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect((await server.client().get('/api/v1/tags/icons/emojis')).status).toBe(401);
  });
});
