import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema, commentSchema, type Comment } from '../../src/contract/comments';
import { entryMessages, journalEntryResponseSchema, voiceEntryResponseSchema, type JournalEntry } from '../../src/contract/entries';
import { feedbackPageSchema } from '../../src/contract/feedback';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER, pageSchema } from '../../src/contract/sync';
import type { ClassifyResult, ImageClassifier } from '../../server/lib/image-classifier';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, storedFileCount, type TestServer } from './support/server';
import { PDF, pngImage, postForm, type FormValue } from './support/uploads';

/**
 * Client-made ids on create (contract clientIdSchema): journal and voice entries and comments keep
 * the id the PWA gave its optimistic copy; the same create sent again is answered with the row it
 * made; anyone else's id is 422 idTaken; threads and feedback are ordered by time, not by id.
 */

/** Lets a test act in the middle of a request: the image check runs after the id check and before the insert. */
class RaceClassifier implements ImageClassifier {
  during: (() => Promise<void>) | null = null;
  calls = 0;
  async classify(): Promise<ClassifyResult> {
    this.calls++;
    const during = this.during;
    this.during = null;
    if (during) await during();
    return { kind: 'ok', probabilities: { Porn: 0.01, Sexy: 0.01, Hentai: 0.01, Neutral: 0.9, Drawing: 0.07 } };
  }
  async close() {}
}

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let sam: Client;
let ali: Client;
let alex: Client;
const classifier = new RaceClassifier();

beforeAll(async () => {
  server = await startTestServer({ imageClassifier: classifier });
  ids = await demoIds(server);
  // Northfield requires two-factor; for this file it does not, so alex (another tenant) can write.
  await server.db.updateTable('tenants').set({ mfa_policy: 'optional' }).where('slug', '=', 'northfield').execute();
  [jamie, sam, ali, alex] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'sam'), signedIn(server, 'carer.ali'), signedIn(server, 'alex', 'northfield')]);
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = '/api/v1/projects/residents/journal/entries';
const VOICE = '/api/v1/projects/residents/voices/entries';
const PNG = pngImage(8, 8, [90, 160, 40]);
const ID_TAKEN = { success: false, message: chosen.validationFailed, errors: { id: [entryMessages.idTaken] } };

type Answer = { success: boolean; data: JournalEntry; message?: string; errors?: Record<string, string[]> };
const createJournal = (fields: [string, FormValue][], client = jamie, headers: Record<string, string> = {}) => postForm<Answer>(server.base, client, JOURNAL, fields, headers);
const rowsWithId = async (table: 'journal_entries' | 'voice_entries' | 'entry_comments', id: string) =>
  (await server.db.selectFrom(table as 'journal_entries').select('id').where('id', '=', id).execute()).length;
const filesOf = async (entryType: 'journal' | 'voice' | 'comment', entryId: string) =>
  (await server.db.selectFrom('entry_files').select('id').where('entry_type', '=', entryType).where('entry_id', '=', entryId).execute()).length;
/** Stored files of the demo tenant (on disk, or in the database on PostgreSQL). */
const storedFiles = async () => {
  const tenant = await server.db.selectFrom('tenants').select('id').where('slug', '=', 'demo').executeTakeFirstOrThrow();
  return storedFileCount(server, tenant.id);
};

async function jamieEntry(description: string, fields: [string, FormValue][] = []): Promise<JournalEntry> {
  const res = await createJournal([['description', description], ['shared_with[]', ids.user['demo/carer.ali']!], ...fields]);
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('client-made ids on create: entries', () => {
  it('keeps the id; the same create sent again answers the same row and stores nothing more', async () => {
    const id = randomUUID();
    const fields: [string, FormValue][] = [['id', id], ['description', 'Written on the bus'], ['files[0]', { name: 'bus.png', data: PNG }], ['shared_with[]', ids.user['demo/carer.dan']!]];
    const first = await createJournal(fields, jamie, { [IDEMPOTENCY_HEADER]: randomUUID() });
    expect(first.status).toBe(201);
    const entry = journalEntryResponseSchema.parse(first.body).data;
    expect(entry.id).toBe(id);
    expect(entry.files).toHaveLength(1);
    expect(await filesOf('journal', id)).toBe(1);
    const disk = await storedFiles();

    // Another key (so the idempotency plugin does not answer), the same id: answered by the route,
    // before any other check (the image is not looked at again).
    const checks = classifier.calls;
    const again = await createJournal(fields, jamie, { [IDEMPOTENCY_HEADER]: randomUUID() });
    expect(classifier.calls).toBe(checks);
    expect(again.status).toBe(201);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
    expect(again.body.data).toEqual(entry);
    // Without a key, with other words and another file, upper-case: still the same create, nothing changes.
    const changed = await createJournal([['id', id.toUpperCase()], ['description', 'Something else'], ['files[0]', { name: 'x.pdf', data: PDF }]]);
    expect(changed.status).toBe(201);
    expect(changed.body.data).toEqual(entry);
    // Dan has since left the home: the create that shared with him is still the create that was made.
    await server.db.updateTable('home_staff').set({ deleted_at: new Date() }).where('user_id', '=', ids.user['demo/carer.dan']!).execute();
    try {
      const later = await createJournal(fields);
      expect(later.status).toBe(201);
      expect(later.body.data.id).toBe(id);
    } finally {
      await server.db.updateTable('home_staff').set({ deleted_at: null }).where('user_id', '=', ids.user['demo/carer.dan']!).execute();
    }
    expect(await rowsWithId('journal_entries', id)).toBe(1);
    expect(await filesOf('journal', id)).toBe(1);
    expect(await storedFiles()).toBe(disk);
  });

  it('voice entries keep the id too', async () => {
    const categories = await server.db.selectFrom('voice_categories').innerJoin('tenants', 'tenants.id', 'voice_categories.tenant_id').select('voice_categories.id').where('tenants.slug', '=', 'demo').execute();
    const id = randomUUID();
    const fields: [string, FormValue][] = [['id', id], ['category_id', categories[0]!.id], ['description', 'The hall light flickers']];
    const first = await postForm<{ data: { id: string } }>(server.base, jamie, VOICE, fields);
    expect(first.status).toBe(201);
    expect(voiceEntryResponseSchema.parse(first.body).data.id).toBe(id);
    const again = await postForm<{ data: { id: string } }>(server.base, jamie, VOICE, fields);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await rowsWithId('voice_entries', id)).toBe(1);
  });

  it("another young person, another tenant or a deleted row: 422 idTaken, and nothing about the row", async () => {
    const entry = await jamieEntry('Only mine');
    const bySam = await createJournal([['id', entry.id], ['description', 'Sam tries the same id']], sam);
    expect(bySam.status).toBe(422);
    expect(bySam.body).toEqual(ID_TAKEN);
    const byAlex = await createJournal([['id', entry.id], ['description', 'Another site tries it']], alex);
    expect(byAlex.status).toBe(422);
    expect(byAlex.body).toEqual(ID_TAKEN);
    expect(await rowsWithId('journal_entries', entry.id)).toBe(1);

    const gone = await jamieEntry('Deleted later');
    await server.db.updateTable('journal_entries').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', gone.id).execute();
    const resent = await createJournal([['id', gone.id], ['description', 'Deleted later']]);
    expect(resent.status).toBe(422);
    expect(resent.body).toEqual(ID_TAKEN);
  });

  it('a malformed id is a 422 field error and creates nothing', async () => {
    const before = await server.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const bad = await createJournal([['id', 'not-a-uuid'], ['description', 'Bad id']]);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(['id']);
    const json = await jamie.post<{ errors: Record<string, string[]> }>(JOURNAL, { id: 12345, description: 'Number id' });
    expect(json.status).toBe(422);
    expect(json.body.errors.id).toHaveLength(1);
    const after = await server.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('is ignored on update: the id is the path', async () => {
    const entry = await jamieEntry('Before the update');
    const other = randomUUID();
    const res = await postForm<Answer>(server.base, jamie, `${JOURNAL}/${entry.id}?_method=PUT`, [['id', other], ['description', 'After the update']]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: entry.id, description: 'After the update' });
    expect(await rowsWithId('journal_entries', other)).toBe(0);
  });

  it('a create that loses the race to the same id is a replay (same person) or idTaken (anyone else), never a 500', async () => {
    const disk = await storedFiles();
    // Same person: the row appears between the id check and the insert.
    const mine = randomUUID();
    let ran = false;
    classifier.during = async () => {
      ran = true;
      await server.db
        .insertInto('journal_entries')
        .values({ id: mine, tenant_id: (await tenantOf('demo/jamie')), resident_id: ids.resident['demo/jamie']!, creator_id: ids.user['demo/jamie']!, description: 'The first copy won' })
        .execute();
    };
    const res = await createJournal([['id', mine], ['description', 'The second copy'], ['files[0]', { name: 'race.png', data: PNG }]]);
    expect(ran).toBe(true);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: mine, description: 'The first copy won', files: [] });
    expect(await filesOf('journal', mine)).toBe(0);
    expect(await storedFiles()).toBe(disk);

    // Someone else: sam's row appears first.
    const theirs = randomUUID();
    classifier.during = async () => {
      await server.db
        .insertInto('journal_entries')
        .values({ id: theirs, tenant_id: (await tenantOf('demo/sam')), resident_id: ids.resident['demo/sam']!, creator_id: ids.user['demo/sam']!, description: 'Sam was first' })
        .execute();
    };
    const lost = await createJournal([['id', theirs], ['description', 'Jamie second'], ['files[0]', { name: 'race.png', data: PNG }]]);
    expect(classifier.during).toBeNull();
    expect(lost.status).toBe(422);
    expect(lost.body).toEqual(ID_TAKEN);
    expect(await storedFiles()).toBe(disk);

    // Truly concurrent sends of one create without keys: one row, every answer 201 with it.
    const together = randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => jamie.post<Answer>(JOURNAL, { id: together, description: 'Sent four times at once' })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.data.id))).toEqual(new Set([together]));
    expect(await rowsWithId('journal_entries', together)).toBe(1);
  });
});

async function tenantOf(key: string): Promise<string> {
  const row = await server.db.selectFrom('users').select('tenant_id').where('id', '=', ids.user[key]!).executeTakeFirstOrThrow();
  return row.tenant_id;
}

const COMMENTS = `${JOURNAL}/comments`;
const commentsPage = pageSchema(commentSchema);

describe('client-made ids on create: comments', () => {
  it('keeps the id; a re-sent create changes nothing (no second row, feedback not counted twice)', async () => {
    const entry = await jamieEntry('Talk about the weekend');
    const id = randomUUID();
    const first = await ali.post(COMMENTS, { id, entry_id: entry.id, comment: 'How was the weekend?' }, { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } });
    expect(first.status).toBe(201);
    const comment = commentResponseSchema.parse(first.body).data;
    expect(comment.id).toBe(id);
    const feedback = await server.db.selectFrom('resident_feedback').select(['count', 'comment_id', 'updated_at']).where('entry_id', '=', entry.id).executeTakeFirstOrThrow();
    expect(feedback).toMatchObject({ count: 1, comment_id: id });

    const again = await ali.post(COMMENTS, { id, entry_id: entry.id, comment: 'How was the weekend?' }, { headers: { [IDEMPOTENCY_HEADER]: randomUUID() } });
    expect(again.status).toBe(201);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
    expect(again.body).toEqual(first.body);
    expect(await rowsWithId('entry_comments', id)).toBe(1);
    expect(await server.db.selectFrom('resident_feedback').select(['count', 'comment_id', 'updated_at']).where('entry_id', '=', entry.id).executeTakeFirstOrThrow()).toEqual(feedback);

    // A multipart create with a file, sent twice: one file.
    const withFile = randomUUID();
    const fields: [string, FormValue][] = [['id', withFile], ['entry_id', entry.id], ['comment', 'Here is a photo'], ['files[0]', { name: 'p.png', data: PNG }]];
    expect((await postForm(server.base, jamie, COMMENTS, fields)).status).toBe(201);
    const disk = await storedFiles();
    const resent = await postForm<{ data: Comment }>(server.base, jamie, COMMENTS, fields);
    expect(resent.status).toBe(201);
    expect(resent.body.data.id).toBe(withFile);
    expect(await filesOf('comment', withFile)).toBe(1);
    expect(await storedFiles()).toBe(disk);
  });

  it("someone else's comment id, a deleted one, or a malformed id: 422, and nothing about the row", async () => {
    const entry = await jamieEntry('A thread');
    const id = randomUUID();
    expect((await jamie.post(COMMENTS, { id, entry_id: entry.id, comment: 'Mine' })).status).toBe(201);
    const samEntry = await server.db.selectFrom('journal_entries').select('id').where('resident_id', '=', ids.resident['demo/sam']!).executeTakeFirstOrThrow();
    const bySam = await sam.post(COMMENTS, { id, entry_id: samEntry.id, comment: 'Same id' });
    expect(bySam.status).toBe(422);
    expect(bySam.body).toEqual(ID_TAKEN);
    // Ali may comment on the entry, but the id is jamie's comment's.
    const byAli = await ali.post(COMMENTS, { id, entry_id: entry.id, comment: 'Same id' });
    expect(byAli.body).toEqual(ID_TAKEN);
    // The voice route does not answer with a journal comment.
    const voiceEntry = await server.db.selectFrom('voice_entries').select('id').where('resident_id', '=', ids.resident['demo/jamie']!).executeTakeFirstOrThrow();
    expect((await jamie.post(`${VOICE}/comments`, { id, entry_id: voiceEntry.id, comment: 'Mine' })).body).toEqual(ID_TAKEN);

    const deleted = randomUUID();
    expect((await jamie.post(COMMENTS, { id: deleted, entry_id: entry.id, comment: 'Soon gone' })).status).toBe(201);
    await server.db.updateTable('entry_comments').set({ deleted_at: new Date() }).where('id', '=', deleted).execute();
    expect((await jamie.post(COMMENTS, { id: deleted, entry_id: entry.id, comment: 'Soon gone' })).body).toEqual(ID_TAKEN);

    const bad = await jamie.post<{ errors: Record<string, string[]> }>(COMMENTS, { id: 'abc', entry_id: entry.id, comment: 'Bad id' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['id']);
    expect((await server.db.selectFrom('entry_comments').select('id').where('comment', '=', 'Bad id').execute()).length).toBe(0);
  });

  it('a comment create that loses the race: replay for the same person, never a 500', async () => {
    const entry = await jamieEntry('Racing thread');
    const id = randomUUID();
    classifier.during = async () => {
      await server.db
        .insertInto('entry_comments')
        .values({ id, tenant_id: await tenantOf('demo/jamie'), entry_type: 'journal', entry_id: entry.id, creator_id: ids.user['demo/jamie']!, comment: 'First copy' })
        .execute();
    };
    const disk = await storedFiles();
    const res = await postForm<{ data: Comment }>(server.base, jamie, COMMENTS, [['id', id], ['entry_id', entry.id], ['comment', 'Second copy'], ['files[0]', { name: 'r.png', data: PNG }]]);
    expect(classifier.during).toBeNull();
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id, comment: 'First copy', files: [] });
    expect(await storedFiles()).toBe(disk);

    const together = randomUUID();
    const answers = await Promise.all(Array.from({ length: 3 }, () => ali.post<{ data: Comment }>(COMMENTS, { id: together, entry_id: entry.id, comment: 'At once' })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(await rowsWithId('entry_comments', together)).toBe(1);
    const row = await server.db.selectFrom('resident_feedback').select(['count', 'comment_id']).where('entry_id', '=', entry.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ count: 1, comment_id: together });
  });
});

describe('order is by time, not by id', () => {
  const HIGH = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
  const LOW = '00000000-0000-4000-8000-000000000000';

  it('comments come back in creation order when ids sort the other way', async () => {
    const entry = await jamieEntry('Order of replies');
    expect((await ali.post(COMMENTS, { id: HIGH, entry_id: entry.id, comment: 'First' })).status).toBe(201);
    expect((await jamie.post(COMMENTS, { id: LOW, entry_id: entry.id, comment: 'Second' })).status).toBe(201);
    const shown = await jamie.get<{ data: { comments: Comment[] } }>(`${JOURNAL}/${entry.id}`);
    expect(shown.body.data.comments.map((c) => c.comment)).toEqual(['First', 'Second']);
    const list = commentsPage.parse((await jamie.get(`${JOURNAL}/${entry.id}/comments`)).body);
    expect(list.data.map((c) => c.comment)).toEqual(['First', 'Second']);
  });

  it('feedback sorted by comment_id desc gives the newest reply first', async () => {
    const older = await jamieEntry('Older reply thread');
    const newer = await jamieEntry('Newer reply thread');
    expect((await ali.post(COMMENTS, { id: 'eeeeeeee-eeee-4eee-beee-eeeeeeeeeeee', entry_id: older.id, comment: 'Earlier reply' })).status).toBe(201);
    expect((await ali.post(COMMENTS, { id: '11111111-1111-4111-8111-111111111111', entry_id: newer.id, comment: 'Later reply' })).status).toBe(201);
    const only = `filters[0][0]=entry_id&filters[0][1]=in&filters[0][2]=${older.id},${newer.id}`;
    const desc = feedbackPageSchema.parse((await jamie.get(`/api/v1/projects/residents/feedback?${only}&sort[0][0]=comment_id&sort[0][1]=desc`)).body);
    expect(desc.data.map((f) => f.latest_comment.comment)).toEqual(['Later reply', 'Earlier reply']);
    const asc = feedbackPageSchema.parse((await jamie.get(`/api/v1/projects/residents/feedback?${only}&sort[0][0]=comment_id&sort[0][1]=asc`)).body);
    expect(asc.data.map((f) => f.latest_comment.comment)).toEqual(['Earlier reply', 'Later reply']);
    // The default sort is the same: newest reply first.
    const byDefault = feedbackPageSchema.parse((await jamie.get(`/api/v1/projects/residents/feedback?${only}`)).body);
    expect(byDefault.data.map((f) => f.latest_comment.comment)).toEqual(['Later reply', 'Earlier reply']);
  });
});
