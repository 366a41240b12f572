import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffAccessPageSchema } from '../../src/contract/audit';
import { commentResponseSchema } from '../../src/contract/comments';
import { journalEntryResponseSchema, journalPageSchema, voiceCategoriesPageSchema, voiceEntryResponseSchema } from '../../src/contract/entries';
import type { EntryKind } from '../../src/contract/entry-kind';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { entryPaths, fileViewPath, paths } from '../../src/contract/paths';
import { featureMessages, residentDetailsResponseSchema, type ResidentDetails } from '../../src/contract/residents';
import { rewardMessages, rewardPageSchema } from '../../src/contract/rewards';
import type { Client } from './support/client';
import { demoIds, openStream, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { getBytes, PDF, postForm } from './support/uploads';

/**
 * Staff switch a young person's journal, voice and rewards on and off (docs/decisions.md "Staff
 * switch a young person's features"), through the API only: carer.ali switches Jamie's journal off,
 * and Jamie can no longer write in it (no entry, no reply in a thread, no edit of a reply) but still
 * reads all of it; staff go on replying. The change reaches Jamie's details pull and his event stream.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let sam: Client;
let ali: Client;
let priya: Client;
let chris: Client;
let jo: Client;
let alex: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  ({ jamie, sam, riley, ali, priya, chris, jo, alex } = await signInDemoClients(server, ['priya', 'jo', 'alex']));
});
afterAll(async () => {
  await server?.close();
});

const jamieId = () => ids.resident['demo/jamie']!;
const aliId = () => ids.user['demo/carer.ali']!;

const setFeatures = (client: Client, resident: string, body?: unknown) => client.put(`/api${paths.residentFeatures.build(resident)}`, body);
async function detailsOf(client: Client): Promise<ResidentDetails> {
  const res = await client.get(`/api${paths.resident.build(jamieId())}`);
  expect(res.status).toBe(200);
  return residentDetailsResponseSchema.parse(res.body).data;
}
const reply = (client: Client, kind: EntryKind, entryId: string, comment: string) => client.post(`/api${entryPaths[kind].comments.build()}`, { entry_id: entryId, comment });
const editReply = (client: Client, kind: EntryKind, id: string, body: Record<string, unknown>) => client.post(`/api${entryPaths[kind].comment.build(id)}?_method=PUT`, body);

let categoryId: string;
const newEntry = async (client: Client, kind: EntryKind, description: string) =>
  client.post(`/api${entryPaths[kind].entries.build()}`, { description, shared_with: [aliId()], ...(kind === 'voice' ? { category_id: categoryId } : {}) });

/** 403 with the message a young person gets for a new entry in a switched-off journal. */
function refusedAsEntries(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body).toEqual({ success: false, message: chosen.forbidden });
}

describe('Jamie’s journal and voice switched off and on again', () => {
  const entry = {} as Record<EntryKind, string>;
  const jamieReply = {} as Record<EntryKind, string>;
  let replyFile: string;

  beforeAll(async () => {
    categoryId = voiceCategoriesPageSchema.parse((await jamie.get(`/api${paths.voiceCategories.build()}`)).body).data[0]!.id;
    for (const kind of ['journal', 'voice'] as const) {
      const created = await newEntry(jamie, kind, `Flags: my ${kind} entry`);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      entry[kind] = (created.body as { data: { id: string } }).data.id;
      expect((await reply(ali, kind, entry[kind], 'Thanks for telling me')).status).toBe(201);
      const answered = await reply(jamie, kind, entry[kind], 'You are welcome');
      expect(answered.status).toBe(201);
      jamieReply[kind] = commentResponseSchema.parse(answered.body).data.id;
    }
    const withFile = await postForm(server.base, jamie, `/api${entryPaths.journal.comments.build()}`, [
      ['entry_id', entry.journal],
      ['comment', 'My plan for the week'],
      ['files[0]', { name: 'plan.pdf', data: PDF, type: 'application/pdf' }],
    ]);
    expect(withFile.status, JSON.stringify(withFile.body)).toBe(201);
    replyFile = commentResponseSchema.parse(withFile.body).data.files[0]!.id;
  });

  it('staff switch the journal off: the answer, Jamie’s details pull, his account and his event stream show it', async () => {
    const before = await detailsOf(jamie);
    expect(before).toMatchObject({ journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 });
    const stream = await openStream(server, jamie);
    try {
      await stream.waitFor(/: connected/);
      const res = await setFeatures(ali, jamieId(), { journal_enabled: 0 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(residentDetailsResponseSchema.parse(res.body).data).toMatchObject({ id: jamieId(), journal_enabled: 0, voice_enabled: 1, rewards_enabled: 1 });
      await stream.waitFor(/"collections":\["resident"\]/);
    } finally {
      stream.close();
    }
    const after = await detailsOf(jamie);
    expect(after).toMatchObject({ journal_enabled: 0, voice_enabled: 1, rewards_enabled: 1 });
    // A later updated_at, so the replica takes the pulled record for the newer copy.
    expect(after.updated_at > before.updated_at).toBe(true);
    const account = await jamie.get(`/api${paths.account.build()}`);
    expect(account.body).toMatchObject({ user: { resident: { journal_enabled: 0, voice_enabled: 1 } } });
  });

  it('Jamie can write nothing in his journal: no reply, no edit of a reply, no entry (403 as for entries)', async () => {
    refusedAsEntries(await reply(jamie, 'journal', entry.journal, 'One more thing'));
    refusedAsEntries(await jamie.post(`/api${entryPaths.journal.comments.build()}`, { entry_id: entry.journal, reaction: '👍' }));
    refusedAsEntries(await editReply(jamie, 'journal', jamieReply.journal, { comment: 'Changed my mind' }));
    refusedAsEntries(await editReply(jamie, 'journal', jamieReply.journal, { reaction: '😀' }));
    refusedAsEntries(
      await postForm(server.base, jamie, `/api${entryPaths.journal.comment.build(jamieReply.journal)}?_method=PUT`, [
        ['files[0]', { name: 'more.pdf', data: PDF, type: 'application/pdf' }],
      ]),
    );
    refusedAsEntries(await newEntry(jamie, 'journal', 'Flags: written while off'));
    refusedAsEntries(await jamie.post(`/api${entryPaths.journal.entry.build(entry.journal)}?_method=PUT`, { description: 'Edited while off' }));
    // Nothing of it was kept.
    const thread = await jamie.get(`/api${entryPaths.journal.entry.build(entry.journal)}`);
    const texts = (thread.body as { data: { comments: { comment: string | null; reaction: string | null }[] } }).data.comments;
    expect(texts.map((c) => c.comment)).toEqual(['Thanks for telling me', 'You are welcome', 'My plan for the week']);
    expect(texts.every((c) => c.reaction === null)).toBe(true);
  });

  it('Jamie still reads his journal, its threads and files; his voice still takes replies', async () => {
    const list = await jamie.get(`/api${paths.journalEntries.build()}?per_page=500`);
    expect(list.status).toBe(200);
    expect(journalPageSchema.parse(list.body).data.map((e) => e.id)).toContain(entry.journal);
    const one = await jamie.get(`/api${entryPaths.journal.entry.build(entry.journal)}`);
    expect(journalEntryResponseSchema.parse(one.body).data.description).toBe('Flags: my journal entry');
    expect((await jamie.get(`/api${entryPaths.journal.entryComments.build(entry.journal)}`)).status).toBe(200);
    const file = await getBytes(server.base, jamie, `/api${fileViewPath(replyFile, 'comment')}`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(PDF)).toBe(true);
    expect((await jamie.get('/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]=%3D&filters[0][2]=journal')).status).toBe(200);
    expect((await reply(jamie, 'voice', entry.voice, 'Voice is still on')).status).toBe(201);
  });

  it('staff go on replying in his journal', async () => {
    expect((await reply(ali, 'journal', entry.journal, 'We can talk about it tomorrow')).status).toBe(201);
  });

  it('voice switched off too: refused there the same way', async () => {
    const res = await setFeatures(ali, jamieId(), { voice_enabled: 0 });
    expect(residentDetailsResponseSchema.parse(res.body).data).toMatchObject({ journal_enabled: 0, voice_enabled: 0, rewards_enabled: 1 });
    refusedAsEntries(await reply(jamie, 'voice', entry.voice, 'And another'));
    refusedAsEntries(await editReply(jamie, 'voice', jamieReply.voice, { comment: 'Edited' }));
    refusedAsEntries(await newEntry(jamie, 'voice', 'Flags: voice while off'));
    expect(voiceEntryResponseSchema.parse((await jamie.get(`/api${entryPaths.voice.entry.build(entry.voice)}`)).body).data.id).toBe(entry.voice);
    expect((await reply(ali, 'voice', entry.voice, 'Staff still reply')).status).toBe(201);
  });

  it('switched on again (POST with _method=PUT, by the home’s manager): Jamie replies, edits and writes again', async () => {
    const res = await priya.post(`/api${paths.residentFeatures.build(jamieId())}?_method=PUT`, { journal_enabled: 1, voice_enabled: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await detailsOf(jamie)).toMatchObject({ journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 });
    for (const kind of ['journal', 'voice'] as const) {
      expect((await reply(jamie, kind, entry[kind], 'Back again')).status).toBe(201);
      const edited = await editReply(jamie, kind, jamieReply[kind], { comment: 'Edited when on' });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect((await newEntry(jamie, kind, `Flags: ${kind} on again`)).status).toBe(201);
    }
  });

  it('the same flags again change nothing: the record keeps its updated_at', async () => {
    const before = await detailsOf(jamie);
    const res = await setFeatures(ali, jamieId(), { journal_enabled: 1, rewards_enabled: 1 });
    expect(res.status).toBe(200);
    expect((await detailsOf(jamie)).updated_at).toBe(before.updated_at);
  });

  it('rewards switched off: exchanges are refused as SPEC §8 says; on again they are allowed', async () => {
    const reward = rewardPageSchema.parse((await jamie.get(`/api${paths.rewards.build()}?resident_id=${jamieId()}`)).body).data.find((r) => r.points <= 50)!;
    const exchange = () => jamie.post(`/api${paths.rewardExchange.build(jamieId(), reward.id)}`, {});
    expect((await setFeatures(ali, jamieId(), { rewards_enabled: 0 })).status).toBe(200);
    const off = await exchange();
    expect(off.status).toBe(422);
    expect(off.body).toMatchObject({ errors: { rewards_enabled: [rewardMessages.rewardsOff] } });
    expect((await setFeatures(ali, jamieId(), { rewards_enabled: 1 })).status).toBe(200);
    expect((await exchange()).status).toBe(201);
  });

  it('the change is in the staff access log, with the young person', async () => {
    const log = await priya.get(`/api${paths.staffAccessLog.build()}?per_page=500&filters[0][0]=resident_id&filters[0][1]=%3D&filters[0][2]=${jamieId()}`);
    expect(log.status).toBe(200);
    const writes = staffAccessPageSchema.parse(log.body).data.filter((r) => r.route === paths.residentFeatures.pattern);
    expect(writes.map((r) => [r.user.first_name, r.action, r.method, r.status])).toContainEqual(['Ali', 'write', 'PUT', 200]);
    expect(writes.map((r) => [r.user.first_name, r.action, r.method, r.status])).toContainEqual(['Priya', 'write', 'POST', 200]);
  });
});

describe('who may switch a young person’s features', () => {
  it('only staff of the young person’s home: the young person 403, anyone else 404, signed out 401', async () => {
    const before = await detailsOf(jamie);
    const body = { journal_enabled: 0, voice_enabled: 0, rewards_enabled: 0 };
    const refused: [string, Client, number][] = [
      ['jamie himself', jamie, 403],
      ['riley (same home)', riley, 404],
      ['sam (other home)', sam, 404],
      ['chris (staff, other home)', chris, 404],
      ['alex (other site)', alex, 404],
      ['jo (staff, other site)', jo, 404],
    ];
    for (const [who, client, status] of refused) {
      const res = await setFeatures(client, jamieId(), body);
      expect(res.status, who).toBe(status);
      expect(res.body, who).toMatchObject({ success: false, message: status === 403 ? chosen.forbidden : chosen.notFound });
    }
    const guest = server.client();
    await guest.csrf();
    expect((await setFeatures(guest, jamieId(), body)).status).toBe(401);
    // Ali works at Willow House, not at Sam's Cedar Lodge; an id that names nobody is the same 404.
    expect((await setFeatures(ali, ids.resident['demo/sam']!, body)).status).toBe(404);
    expect((await setFeatures(ali, '00000000-0000-0000-0000-000000000000', body)).status).toBe(404);
    expect((await setFeatures(ali, 'not-an-id', body)).status).toBe(422);
    // A POST without the override is not an update.
    expect((await ali.post(`/api${paths.residentFeatures.build(jamieId())}`, body)).status).toBe(405);
    expect(await detailsOf(jamie)).toEqual(before);
  });

  it('anything but 0 or 1 for a flag, another key, or nothing at all is a 422 with field errors, and changes nothing', async () => {
    const before = await detailsOf(jamie);
    const cases: [unknown, Record<string, string[]>][] = [
      [undefined, { _: [featureMessages.nothing] }],
      [{}, { _: [featureMessages.nothing] }],
      [{ journal_enabled: 2 }, { journal_enabled: [featureMessages.value] }],
      [{ journal_enabled: '0' }, { journal_enabled: [featureMessages.value] }],
      [{ voice_enabled: true }, { voice_enabled: [featureMessages.value] }],
      [{ rewards_enabled: null }, { rewards_enabled: [featureMessages.value] }],
      [{ journal_enabled: 0, voice_enabled: -1 }, { voice_enabled: [featureMessages.value] }],
      [{ journal_enabled: 0, journal: 0 }, { journal: [featureMessages.unknown] }],
      [{ home_id: ids.home['Cedar Lodge'] }, { home_id: [featureMessages.unknown], _: [featureMessages.nothing] }],
    ];
    for (const [body, errors] of cases) {
      const res = await setFeatures(ali, jamieId(), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual({ success: false, message: chosen.validationFailed, errors });
    }
    for (const body of [[], [{ journal_enabled: 0 }], 0, 'journal_enabled']) {
      const res = await setFeatures(ali, jamieId(), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toMatchObject({ success: false, errors: { _: [expect.any(String)] } });
    }
    expect(await detailsOf(jamie)).toEqual(before);
  });
});
