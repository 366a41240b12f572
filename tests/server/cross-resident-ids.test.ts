import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema } from '../../src/contract/comments';
import { documentPageSchema, documentResponseSchema } from '../../src/contract/documents';
import { journalEntryResponseSchema, voiceCategoriesPageSchema, voiceEntryResponseSchema, type JournalEntry, type VoiceEntry } from '../../src/contract/entries';
import type { EntryKind } from '../../src/contract/entry-kind';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { entryPaths, fileViewPath, paths } from '../../src/contract/paths';
import type { Client } from './support/client';
import { demoIds, signedIn, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, pngImage, postForm } from './support/uploads';

/**
 * Ids copied from one person's rows into another's requests, through the API: Jamie's journal and
 * voice entries, their threads and files, asked for and written to by Riley (a young person of the
 * same home), Alex and Jo (another site), Chris (staff of another home), and Beth and Priya (staff of
 * his home it was not shared with). journal-entries.test.ts covers Sam (another home) and Beth's
 * reads; entry-access.test.ts staff comments and tombstones; sync-lists.test.ts Sam and Alex on the
 * young person's records. Everything here must be a 404 that says nothing, and nothing may change.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let outsiders: [string, Client][];

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: new FakeClassifier() });
  ids = await demoIds(server);
  const clients = await signInDemoClients(server, ['alex', 'jo', 'priya']);
  ({ jamie, ali } = clients);
  const beth = await signedIn(server, 'carer.beth');
  outsiders = [
    ['riley (same home)', clients.riley],
    ['alex (other site)', clients.alex],
    ['jo (staff, other site)', clients.jo],
    ['chris (staff, other home)', clients.chris],
    ['beth (staff of his home, not shared with)', beth],
    ['priya (manager of his home, not shared with management)', clients.priya],
  ];
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const user = (name: string) => ids.user[`demo/${name}`]!;
const PNG = pngImage(5, 5, [30, 60, 200]);
const NOT_FOUND = { success: false, message: chosen.notFound };
const FROM_THE_START = 'with_trashed=1&per_page=1000&checkpoint[updated_at]=1970-01-01T00:00:00.000000Z&checkpoint[id]=00000000-0000-0000-0000-000000000000';

/** Jamie's entry of this kind, shared with Ali only, with a photo and a reply of his carrying a PDF. */
async function jamiesEntry(kind: EntryKind) {
  const category = kind === 'voice' ? voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data[0]!.id : null;
  const made = await postForm(server.base, jamie, `/api${entryPaths[kind].entries.build()}`, [
    ['description', `Only for Ali: ${kind}`],
    ['shared_with[]', user('carer.ali')],
    ['files[0]', { name: 'me.png', data: PNG }],
    ...(category ? ([['category_id', category]] as [string, string][]) : []),
  ]);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const entry: JournalEntry | VoiceEntry = (kind === 'journal' ? journalEntryResponseSchema : voiceEntryResponseSchema).parse(made.body).data;
  const replied = await postForm(server.base, jamie, `/api${entryPaths[kind].comments.build()}`, [
    ['entry_id', entry.id],
    ['comment', 'And the letter'],
    ['files[0]', { name: 'letter.pdf', data: PDF, type: 'application/pdf' }],
  ]);
  expect(replied.status, JSON.stringify(replied.body)).toBe(201);
  return { entry, reply: commentResponseSchema.parse(replied.body).data };
}

describe.each(['journal', 'voice'] as const)('Jamie’s %s entry, by id, to everyone it was not shared with', (kind) => {
  it('every read is a 404 that says nothing, no list or pull holds it, and no write gets through', async () => {
    const { entry, reply } = await jamiesEntry(kind);
    const routes = entryPaths[kind];
    const thread = () => jamie.get(`/api${routes.entry.build(entry.id)}`);
    const before = (await thread()).body;
    for (const [who, client] of outsiders) {
      for (const path of [routes.entry.build(entry.id), routes.entryComments.build(entry.id)]) {
        const res = await client.get(`/api${path}`);
        expect(res.status, `${who} GET ${path}`).toBe(404);
        expect(res.body, who).toEqual(NOT_FOUND);
      }
      for (const [fileId, module] of [[entry.files[0]!.id, kind], [reply.files[0]!.id, 'comment']] as const) {
        const file = await getBytes(server.base, client, `/api${fileViewPath(fileId, module)}`);
        expect(file.status, `${who} file ${module}`).toBe(404);
        expect(file.bytes.includes(PDF.subarray(0, 8)) || file.bytes.includes(PNG.subarray(0, 8)), who).toBe(false);
      }
      const lists = [
        `${routes.entries.build()}?per_page=1000`,
        `${routes.entries.build()}?${FROM_THE_START}&sort[0][0]=updated_at&sort[0][1]=asc&sort[1][0]=id&sort[1][1]=asc`,
        `${routes.entries.build()}?search_term=${encodeURIComponent('Only for Ali')}`,
        `${paths.feedback.build()}?per_page=1000`,
      ];
      for (const path of lists) {
        const res = await client.get(`/api${path}`);
        expect(res.status, `${who} ${path}`).toBe(200);
        expect(JSON.stringify(res.body), `${who} ${path}`).not.toContain(entry.id);
      }
      // Staff write no entries at all (403, before the id is looked at); a young person's is only theirs (404).
      const update = await client.post(`/api${routes.entry.build(entry.id)}?_method=PUT`, { description: 'Changed by someone else' });
      expect(update.status, `${who} update`).toBe(who.startsWith('riley') || who.startsWith('alex') ? 404 : 403);
      const replyTo = await client.post(`/api${routes.comments.build()}`, { entry_id: entry.id, comment: 'I read this' });
      expect(replyTo.status, `${who} reply`).toBe(404);
      expect(replyTo.body, who).toEqual(NOT_FOUND);
      const edit = await client.post(`/api${routes.comment.build(reply.id)}?_method=PUT`, { comment: 'Changed by someone else' });
      expect(edit.status, `${who} edit`).toBe(404);
    }
    expect((await thread()).body).toEqual(before);
  });
});

describe('sharing an entry with a young person of the same home', () => {
  it('is refused (only staff of the home), and Riley still cannot read it', async () => {
    const res = await jamie.post(`/api${entryPaths.journal.entries.build()}`, { description: 'For Riley', shared_with: [user('riley')] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errors: { shared_with: ['You can only share with people who work in your home'] } });
    const riley = outsiders[0]![1];
    expect(JSON.stringify((await riley.get(`/api${entryPaths.journal.entries.build()}?per_page=1000`)).body)).not.toContain('For Riley');
  });
});

describe('a member of staff who lost access to an entry', () => {
  it('can no longer download its photo, their own reply’s file or the young person’s', async () => {
    const { entry, reply } = await jamiesEntry('journal');
    const made = await postForm(server.base, ali, `/api${entryPaths.journal.comments.build()}`, [['entry_id', entry.id], ['comment', 'Here is the form'], ['files[0]', { name: 'form.pdf', data: PDF, type: 'application/pdf' }]]);
    expect(made.status).toBe(201);
    const his = commentResponseSchema.parse(made.body).data;
    const files: [string, 'journal' | 'comment'][] = [[entry.files[0]!.id, 'journal'], [reply.files[0]!.id, 'comment'], [his.files[0]!.id, 'comment']];
    for (const [id, module] of files) expect((await getBytes(server.base, ali, `/api${fileViewPath(id, module)}`)).status).toBe(200);

    const unshared = await jamie.post(`/api${entryPaths.journal.entry.build(entry.id)}?_method=PUT`, { shared_with: [] });
    expect(unshared.status).toBe(200);
    for (const [id, module] of files) {
      expect((await getBytes(server.base, ali, `/api${fileViewPath(id, module)}`)).status, `${module} ${id}`).toBe(404);
      expect((await getBytes(server.base, jamie, `/api${fileViewPath(id, module)}`)).status, `jamie ${module}`).toBe(200);
    }
  });
});

describe('the young person’s own records, by id, to someone of the same home or another site', () => {
  it('details, calendar, staff list, settings, points, image check and app settings are 404', async () => {
    const reads = [
      paths.resident.build(jamieId()),
      paths.calendarInstances.build(jamieId()),
      paths.associatedUsers.build(jamieId()),
      paths.projectSetting.build(jamieId(), 'explicit_image_sensitivity'),
      paths.residentPoints.build(jamieId()),
    ];
    for (const [who, client] of outsiders.filter(([name]) => !name.includes('his home'))) {
      for (const path of reads) {
        const res = await client.get(`/api${path}`);
        expect(res.status, `${who} ${path}`).toBe(404);
        expect(res.body, who).toEqual(NOT_FOUND);
      }
      const check = await postForm(server.base, client, `/api${paths.nsfwCheck.build(jamieId())}`, [['image', { name: 'a.png', data: PNG }]]);
      expect(check.status, `${who} image check`).toBe(404);
      const settings = await client.put(`/api${paths.appSettings.build(jamieId())}`, { theme: 'metro' });
      expect(settings.status, `${who} app settings`).toBe(404);
    }
    const own = await jamie.get<{ data: { app_settings: { theme: string } } }>(`/api${paths.resident.build(jamieId())}`);
    expect(own.body.data.app_settings.theme).not.toBe('metro');
  });
});

describe('staff pointing a row of their home at a young person or home they do not work with', () => {
  it('a document shared or moved to another home’s young person, another home or another site is a 404, and stays where it was', async () => {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>(`/api${paths.forms.build()}?per_page=100`);
    const formId = forms.body.data[0]!.id;
    const shared = await ali.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'For Jamie only', resident_id: jamieId(), form_id: formId });
    expect(shared.status).toBe(201);
    const doc = documentResponseSchema.parse(shared.body).data;
    const elsewhere: Record<string, string>[] = [
      { resident_id: ids.resident['demo/sam']! },
      { resident_id: ids.resident['northfield/alex']! },
      { home_id: ids.home['Cedar Lodge']! },
      { home_id: ids.home['Northfield House']! },
    ];
    for (const audience of elsewhere) {
      const moved = await ali.post(`/api${paths.document.build(doc.id)}?_method=PUT`, audience);
      expect(moved.status, JSON.stringify(audience)).toBe(404);
      const made = await ali.post(`/api${paths.documents.build()}`, { kind: 'form', title: 'Elsewhere', form_id: formId, ...audience });
      expect(made.status, JSON.stringify(audience)).toBe(404);
    }
    const now = documentResponseSchema.parse((await jamie.get(`/api${paths.document.build(doc.id)}`)).body).data;
    expect(now).toMatchObject({ resident_id: jamieId(), home_id: null, version: 1, updated_at: doc.updated_at });
    const sam = await signedIn(server, 'sam');
    const samsDocs = documentPageSchema.parse((await sam.get(`/api${paths.documents.build()}?per_page=500`)).body).data;
    expect(samsDocs.map((d) => d.title)).not.toContain('Elsewhere');
    expect(samsDocs.map((d) => d.id)).not.toContain(doc.id);
  });
});
