/**
 * Edit conflicts of journal and voice entries (issue 12, server/domain/entries/conflicts.ts): an
 * update that says which copy it was made from (`base_updated_at`) and which device made it
 * (`device_id`) is refused with 412, the entry as it is now in `data`, when another device changed
 * the entry's content after that copy. One device's changes in a row never conflict with each
 * other; staff replies are not content; without a base an update applies as SPEC §7 says.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryMessages, type JournalEntry, type VoiceEntry } from '../../src/contract/entries';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, pngImage, postForm, type FormValue } from './support/uploads';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
/** jamie's tablet and jamie's phone: two sessions, two devices. */
let tablet: Client;
let phone: Client;
let ali: Client;
const classifier = new FakeClassifier();

const TABLET = 'device-tablet-0001';
const PHONE = 'device-phone-0002';
const ENTRIES = '/api/v1/projects/residents/journal/entries';
const VOICE = '/api/v1/projects/residents/voices/entries';

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  [tablet, phone, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
});
afterAll(async () => {
  await server?.close();
});

type Answer<T> = { success: boolean; message?: string; data: T; errors?: Record<string, string[]> };

const create = async (fields: [string, FormValue][], path = ENTRIES) => {
  const res = await postForm<Answer<JournalEntry>>(server.base, tablet, path, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const update = (client: Client, id: string, fields: [string, FormValue][], headers: Record<string, string> = {}, path = ENTRIES) =>
  postForm<Answer<JournalEntry>>(server.base, client, `${path}/${id}?_method=PUT`, fields, headers);
const row = (id: string) =>
  server.db.selectFrom('journal_entries').select(['description', 'reaction', sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('updated_at')]).where('id', '=', id).executeTakeFirstOrThrow();
const fileRows = async (id: string) => (await server.db.selectFrom('entry_files').select('id').where('entry_id', '=', id).where('deleted_at', 'is', null).execute()).length;

describe('edit conflicts (412)', () => {
  it('an update made from a copy another device changed since is refused with the entry as it is now, and changes nothing', async () => {
    const entry = await create([['description', 'first words'], ['device_id', TABLET]]);
    const base = entry.updated_at;
    const mine = await update(tablet, entry.id, [['description', 'tablet words'], ['base_updated_at', base], ['device_id', TABLET]]);
    expect(mine.status).toBe(200);

    const checks = classifier.calls;
    const theirs = await update(phone, entry.id, [
      ['description', 'phone words'],
      ['reaction', '🙂'],
      ['files[0]', { name: 'late.png', data: pngImage(4, 4, [1, 2, 3]) }],
      ['base_updated_at', base],
      ['device_id', PHONE],
    ]);
    expect(theirs.status).toBe(412);
    expect(theirs.body).toMatchObject({ success: false, message: entryMessages.editConflict, errors: { base_updated_at: [entryMessages.editConflict] } });
    // The other version, so the phone can show both at once.
    expect(theirs.body.data).toMatchObject({ id: entry.id, description: 'tablet words', updated_at: mine.body.data.updated_at });
    expect(await row(entry.id)).toMatchObject({ description: 'tablet words', reaction: null });
    // Refused before anything costly: no image checked, no file kept.
    expect(classifier.calls).toBe(checks);
    expect(await fileRows(entry.id)).toBe(0);

    // Made from the copy it has now, the phone's change goes through.
    const again = await update(phone, entry.id, [['description', 'phone words'], ['base_updated_at', mine.body.data.updated_at], ['device_id', PHONE]]);
    expect(again.status).toBe(200);
    expect((await row(entry.id)).description).toBe('phone words');
  });

  it('one device’s edits made one after the other from the same copy are not conflicts, until another device changes it', async () => {
    const entry = await create([['description', 'offline start'], ['device_id', TABLET]]);
    const base = entry.updated_at;
    // Three edits made offline on the tablet, each from the copy it had: the first one's base.
    for (const words of ['offline one', 'offline two', 'offline three']) {
      const res = await update(tablet, entry.id, [['description', words], ['base_updated_at', base], ['device_id', TABLET]]);
      expect(res.status, words).toBe(200);
    }
    const now = await row(entry.id);
    expect(now.description).toBe('offline three');
    const phoneEdit = await update(phone, entry.id, [['description', 'phone after'], ['base_updated_at', now.updated_at], ['device_id', PHONE]]);
    expect(phoneEdit.status).toBe(200);
    // A fourth edit the tablet made from its old copy now meets the phone's change.
    const late = await update(tablet, entry.id, [['description', 'offline four'], ['base_updated_at', base], ['device_id', TABLET]]);
    expect(late.status).toBe(412);
    expect((await row(entry.id)).description).toBe('phone after');
  });

  it('a create names its device: that device’s next edit is its own even from a copy it never had', async () => {
    const entry = await create([['description', 'made on the tablet'], ['device_id', TABLET]]);
    const long = '2000-01-01T00:00:00Z';
    expect((await update(tablet, entry.id, [['description', 'tablet again'], ['base_updated_at', long], ['device_id', TABLET]])).status).toBe(200);
    expect((await update(phone, entry.id, [['description', 'phone'], ['base_updated_at', long], ['device_id', PHONE]])).status).toBe(412);
    // Without a device id nobody can claim the last change.
    expect((await update(tablet, entry.id, [['description', 'who?'], ['base_updated_at', long]])).status).toBe(412);
  });

  it('staff replies move updated_at but are not changes to the entry', async () => {
    const entry = await create([['description', 'shared with Ali'], ['shared_with[]', ids.user['demo/carer.ali']!], ['device_id', TABLET]]);
    const reply = await ali.post(`${ENTRIES}/comments`, { entry_id: entry.id, comment: 'Thanks for telling me' });
    expect(reply.status).toBe(201);
    expect((await row(entry.id)).updated_at > entry.updated_at).toBe(true);
    const res = await update(phone, entry.id, [['description', 'edited on the phone'], ['base_updated_at', entry.updated_at], ['device_id', PHONE]]);
    expect(res.status).toBe(200);
  });

  it('without base_updated_at an update applies as before (SPEC §7)', async () => {
    const entry = await create([['description', 'plain'], ['device_id', TABLET]]);
    expect((await update(tablet, entry.id, [['description', 'tablet']])).status).toBe(200);
    const res = await phone.post(`${ENTRIES}/${entry.id}?_method=PUT`, { description: 'phone, JSON, no base' });
    expect(res.status).toBe(200);
    expect((await row(entry.id)).description).toBe('phone, JSON, no base');
  });

  it('replays with the same Idempotency-Key answer as the first time: a refusal stays a refusal, a change that went through stays done', async () => {
    const entry = await create([['description', 'replays'], ['device_id', TABLET]]);
    const base = entry.updated_at;
    const accepted = await update(tablet, entry.id, [['description', 'tablet'], ['base_updated_at', base], ['device_id', TABLET]], { [IDEMPOTENCY_HEADER]: 'conflict-replay-accepted' });
    expect(accepted.status).toBe(200);
    const refused = await update(phone, entry.id, [['description', 'phone'], ['base_updated_at', base], ['device_id', PHONE]], { [IDEMPOTENCY_HEADER]: 'conflict-replay-refused' });
    expect(refused.status).toBe(412);
    const phoneLater = await update(phone, entry.id, [['description', 'phone later'], ['base_updated_at', accepted.body.data.updated_at], ['device_id', PHONE]]);
    expect(phoneLater.status).toBe(200);

    // The tablet's answer was lost and it sends the same request again: the stored answer, nothing applied twice.
    const resent = await update(tablet, entry.id, [['description', 'tablet'], ['base_updated_at', base], ['device_id', TABLET]], { [IDEMPOTENCY_HEADER]: 'conflict-replay-accepted' });
    expect(resent.status).toBe(200);
    expect(resent.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    const again = await update(phone, entry.id, [['description', 'phone'], ['base_updated_at', base], ['device_id', PHONE]], { [IDEMPOTENCY_HEADER]: 'conflict-replay-refused' });
    expect(again.status).toBe(412);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect((await row(entry.id)).description).toBe('phone later');
  });

  it('refuses a base or a device id that does not read (422 on the field)', async () => {
    const entry = await create([['description', 'bad versions'], ['device_id', TABLET]]);
    const badBase = await update(tablet, entry.id, [['description', 'x'], ['base_updated_at', '2026-13-45T99:99:99Z']]);
    expect(badBase.status).toBe(422);
    expect(badBase.body.errors).toHaveProperty('base_updated_at');
    const badDevice = await update(tablet, entry.id, [['description', 'x'], ['device_id', 'no spaces allowed']]);
    expect(badDevice.status).toBe(422);
    expect(badDevice.body.errors).toHaveProperty('device_id');
    const wrongType = await tablet.post<Answer<JournalEntry>>(`${ENTRIES}/${entry.id}?_method=PUT`, { description: 'x', base_updated_at: { a: 'b' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toHaveProperty('base_updated_at');
    expect((await row(entry.id)).description).toBe('bad versions');
  });

  it('updated_at never goes back: a reply after a change made "in the future" still moves it forward', async () => {
    const entry = await create([['description', 'clock'], ['shared_with[]', ids.user['demo/carer.ali']!], ['device_id', TABLET]]);
    const ahead = '2099-01-01T00:00:00.000000Z';
    await server.db.updateTable('journal_entries').set({ updated_at: ahead, content_updated_at: ahead }).where('id', '=', entry.id).execute();
    expect((await ali.post(`${ENTRIES}/comments`, { entry_id: entry.id, comment: 'a reply' })).status).toBe(201);
    const after = (await row(entry.id)).updated_at;
    expect(after > ahead).toBe(true);
    // A device that saw the entry after the reply has seen its content: not a conflict.
    expect((await update(phone, entry.id, [['description', 'phone'], ['base_updated_at', after], ['device_id', PHONE]])).status).toBe(200);
  });

  it('voice messages follow the same rule', async () => {
    const category = await server.db.selectFrom('voice_categories').select('id').limit(1).executeTakeFirstOrThrow();
    const res = await postForm<Answer<VoiceEntry>>(server.base, tablet, VOICE, [['description', 'voice first'], ['category_id', category.id], ['device_id', TABLET]]);
    expect(res.status).toBe(201);
    const entry = res.body.data;
    expect((await update(tablet, entry.id, [['description', 'voice tablet'], ['base_updated_at', entry.updated_at], ['device_id', TABLET]], {}, VOICE)).status).toBe(200);
    const refused = await update(phone, entry.id, [['description', 'voice phone'], ['base_updated_at', entry.updated_at], ['device_id', PHONE]], {}, VOICE);
    expect(refused.status).toBe(412);
    expect(refused.body.data).toMatchObject({ id: entry.id, description: 'voice tablet' });
  });
});
