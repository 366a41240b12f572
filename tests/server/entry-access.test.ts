import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema, type Comment } from '../../src/contract/comments';
import { entryMessages, journalPageSchema, voicePageSchema, type JournalEntry, type VoiceEntry } from '../../src/contract/entries';
import type { Checkpoint } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { PDF, postForm, type FormValue } from './support/uploads';

/**
 * Locked entries (staff closed the conversation) and tombstones for staff who lose read access to
 * an entry (entry_access_revocations, docs/api.md "Lost access").
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let beth: Client;
let priya: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  [jamie, ali, beth, priya] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.beth'), signedIn(server, 'manager.priya')]);
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = '/api/v1/projects/residents/journal/entries';
const VOICE = '/api/v1/projects/residents/voices/entries';
const LOCKED = { success: false, message: entryMessages.locked, errors: { locked_at: [entryMessages.locked] } };
const NIL = '00000000-0000-0000-0000-000000000000';
const START: Checkpoint = { updated_at: '1970-01-01T00:00:00.000000Z', id: NIL };

type Answer<T = JournalEntry> = { success: boolean; data: T; message?: string; errors?: Record<string, string[]> };
const user = (name: string) => ids.user[`demo/${name}`]!;

async function create(fields: [string, FormValue][], path = JOURNAL): Promise<JournalEntry> {
  const res = await postForm<Answer>(server.base, jamie, path, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}
async function update(id: string, fields: [string, FormValue][], path = JOURNAL) {
  const res = await postForm<Answer>(server.base, jamie, `${path}/${id}?_method=PUT`, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const checkpointQuery = (from: Checkpoint, perPage: number) =>
  `with_trashed=1&per_page=${perPage}&checkpoint[updated_at]=${encodeURIComponent(from.updated_at)}&checkpoint[id]=${from.id}`;

/** One replication page, as the PWA asks for it. */
async function pullPage(client: Client, from: Checkpoint, perPage = 500, path = JOURNAL) {
  const res = await client.get(`${path}?sort[0][0]=updated_at&sort[0][1]=asc&sort[1][0]=id&sort[1][1]=asc&${checkpointQuery(from, perPage)}`);
  expect(res.status).toBe(200);
  return path === JOURNAL ? journalPageSchema.parse(res.body) : voicePageSchema.parse(res.body);
}

/** Every page after `from`, as a replica walks them; the rows in order and the last checkpoint. */
async function pull(client: Client, from: Checkpoint, perPage = 500, path = JOURNAL) {
  const rows: (JournalEntry | VoiceEntry)[] = [];
  const pages: number[] = [];
  let checkpoint = from;
  for (let i = 0; i < 100; i++) {
    const page = await pullPage(client, checkpoint, perPage, path);
    rows.push(...page.data);
    pages.push(page.data.length);
    const last = page.data.at(-1);
    if (last) expect(page.meta.checkpoint).toEqual({ updated_at: last.updated_at, id: last.id });
    checkpoint = page.meta.checkpoint ?? checkpoint;
    if (!page.meta.has_more) return { rows, checkpoint, pages };
  }
  throw new Error('pull did not end');
}

const tombstone = (id: string, at: string) => ({
  id,
  updated_at: at,
  deleted_at: at,
  resident_id: NIL,
  creator: { id: NIL, first_name: '', last_name: '', has_photo: false },
  description: null,
  reaction: null,
  canvas: null,
  files: [],
  shared_with: [],
  shared_with_management: false,
  comments_count: 0,
  locked_at: null,
  created_at: '1970-01-01T00:00:00.000000Z',
  entry_date: '1970-01-01',
  entry_time: '00:00',
});

describe('finding 3: staff who lose access to an entry lose their comments on it too', () => {
  it('after jamie unshares, carer.ali can neither read nor edit his own comment; shared again, he can', async () => {
    const entry = await create([['description', 'Can I tell you something'], ['shared_with[]', user('carer.ali')]]);
    const his = await ali.post<Answer<Comment>>(`${JOURNAL}/comments`, { entry_id: entry.id, comment: 'Of course, any time' });
    expect(his.status).toBe(201);
    await update(entry.id, [['shared_with[]', '']]);
    expect((await ali.get(`${JOURNAL}/${entry.id}`)).status).toBe(404);

    const edit = await postForm(server.base, ali, `${JOURNAL}/comments/${his.body.data.id}?_method=PUT`, [['comment', 'Changed after losing access']]);
    expect(edit.status).toBe(404);
    const thread = await jamie.get<Answer<JournalEntry & { comments: Comment[] }>>(`${JOURNAL}/${entry.id}`);
    expect(thread.body.data.comments.map((c) => c.comment)).toEqual(['Of course, any time']);

    await update(entry.id, [['shared_with[]', user('carer.ali')]]);
    expect((await postForm(server.base, ali, `${JOURNAL}/comments/${his.body.data.id}?_method=PUT`, [['comment', 'Of course, any time!']])).status).toBe(200);
  });
});

describe('locked entries: the conversation is closed', () => {
  it('the young person can no longer update the entry, comment or edit a comment; staff still comment; reads are unchanged', async () => {
    const entry = await create([['description', 'Please can we talk'], ['shared_with[]', user('carer.ali')]]);
    expect((await ali.post(`${JOURNAL}/comments`, { entry_id: entry.id, comment: 'Of course, after school?' })).status).toBe(201);
    const mine = commentResponseSchema.parse((await jamie.post(`${JOURNAL}/comments`, { id: randomUUID(), entry_id: entry.id, comment: 'Yes please' })).body).data;
    await server.db.updateTable('journal_entries').set({ locked_at: new Date(), updated_at: new Date() }).where('id', '=', entry.id).execute();
    const comments = async () => (await server.db.selectFrom('entry_comments').select(['id', 'comment']).where('entry_id', '=', entry.id).orderBy('created_at').execute());
    const before = { entry: await server.db.selectFrom('journal_entries').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow(), comments: await comments() };

    const edit = await postForm(server.base, jamie, `${JOURNAL}/${entry.id}?_method=PUT`, [['description', 'Changed my mind']]);
    expect(edit.status).toBe(422);
    expect(edit.body).toEqual(LOCKED);
    const reply = await jamie.post(`${JOURNAL}/comments`, { entry_id: entry.id, comment: 'One more thing' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(LOCKED);
    const reword = await postForm(server.base, jamie, `${JOURNAL}/comments/${mine.id}?_method=PUT`, [['comment', 'Yes please!!']]);
    expect(reword.status).toBe(422);
    expect(reword.body).toEqual(LOCKED);
    expect(await server.db.selectFrom('journal_entries').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow()).toEqual(before.entry);
    expect(await comments()).toEqual(before.comments);

    // Sent again after the lock, a reply made before it is still the same reply (nothing new).
    const resent = await jamie.post<Answer<Comment>>(`${JOURNAL}/comments`, { id: mine.id, entry_id: entry.id, comment: 'Yes please' });
    expect(resent.status).toBe(201);
    expect(resent.body.data.id).toBe(mine.id);

    const staff = await ali.post<Answer<Comment>>(`${JOURNAL}/comments`, { entry_id: entry.id, comment: 'Closing this now, see you at tea' });
    expect(staff.status).toBe(201);
    expect((await postForm(server.base, ali, `${JOURNAL}/comments/${staff.body.data.id}?_method=PUT`, [['comment', 'Closing this now, see you at tea!']])).status).toBe(200);

    const shown = await jamie.get<Answer<JournalEntry & { comments: Comment[] }>>(`${JOURNAL}/${entry.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.locked_at).toMatch(/\.\d{6}Z$/);
    expect(shown.body.data.comments).toHaveLength(3);
  });

  it('voice entries lock the same way', async () => {
    const category = await server.db.selectFrom('voice_categories').select('id').where('tenant_id', '=', (await server.db.selectFrom('users').select('tenant_id').where('id', '=', user('jamie')).executeTakeFirstOrThrow()).tenant_id).executeTakeFirstOrThrow();
    const entry = await create([['category_id', category.id], ['description', 'The shower is cold'], ['shared_with[]', user('carer.ali')]], VOICE);
    await server.db.updateTable('voice_entries').set({ locked_at: new Date() }).where('id', '=', entry.id).execute();
    const edit = await postForm(server.base, jamie, `${VOICE}/${entry.id}?_method=PUT`, [['description', 'Still cold']]);
    expect(edit.status).toBe(422);
    expect(edit.body).toEqual(LOCKED);
    expect((await jamie.post(`${VOICE}/comments`, { entry_id: entry.id, comment: 'Hello?' })).body).toEqual(LOCKED);
    expect((await ali.post(`${VOICE}/comments`, { entry_id: entry.id, comment: 'Fixed on Monday' })).status).toBe(201);
  });

  it('the demo seed has one closed conversation of jamie, with a staff comment', async () => {
    const page = journalPageSchema.parse((await jamie.get(`${JOURNAL}?per_page=500&filters[0][0]=created_at&filters[0][1]=%3C&filters[0][2]=${encodeURIComponent(new Date(Date.now() - 25 * 86_400_000).toISOString())}`)).body);
    const closed = page.data.filter((e) => e.locked_at !== null);
    expect(closed.map((e) => [e.description, e.comments_count])).toEqual([['Had a row with Sam about the TV remote. Still annoyed.', 1]]);
    expect((await jamie.post(`${JOURNAL}/comments`, { entry_id: closed[0]!.id, comment: 'Can I say one more thing?' })).body).toEqual(LOCKED);
  });
});

describe('lost access: tombstones in checkpoint pulls', () => {
  it('a staff member taken off shared_with gets a tombstone with no content; added back, the entry again', async () => {
    const cp0 = (await pull(ali, START)).checkpoint;
    const entry = await create([['description', 'Secret plan for the trip'], ['reaction', '🤩'], ['shared_with[]', user('carer.ali')], ['files[0]', { name: 'map.pdf', data: PDF }]]);
    const first = await pull(ali, cp0);
    expect(first.rows.map((r) => [r.id, r.deleted_at])).toEqual([[entry.id, null]]);

    await update(entry.id, [['shared_with[]', '']]);
    expect((await ali.get(`${JOURNAL}/${entry.id}`)).status).toBe(404);
    const revoked = await pull(ali, first.checkpoint);
    expect(revoked.rows).toHaveLength(1);
    const at = revoked.rows[0]!.updated_at;
    expect(revoked.rows[0]).toEqual(tombstone(entry.id, at));
    expect(JSON.stringify(revoked.rows)).not.toMatch(/Secret|trip|map\.pdf|🤩|Jamie/);
    expect(revoked.checkpoint).toEqual({ updated_at: at, id: entry.id });
    expect((await pull(ali, revoked.checkpoint)).rows).toEqual([]);
    // Only ali lost anything: the young person and staff who never read it have no revocation.
    expect((await server.db.selectFrom('entry_access_revocations').select('user_id').where('entry_id', '=', entry.id).execute()).map((r) => r.user_id)).toEqual([user('carer.ali')]);
    expect((await pull(jamie, first.checkpoint)).rows.filter((r) => r.id === entry.id).map((r) => r.deleted_at)).toEqual([null]);

    // Removed again while already removed: nothing new for ali.
    await update(entry.id, [['description', 'Secret plan, version two']]);
    expect((await pull(ali, revoked.checkpoint)).rows).toEqual([]);

    await update(entry.id, [['shared_with[]', user('carer.ali')]]);
    const back = await pull(ali, revoked.checkpoint);
    expect(back.rows.map((r) => [r.id, r.deleted_at, r.description])).toEqual([[entry.id, null, 'Secret plan, version two']]);
    // From before the tombstone too: the entry, once, and no tombstone.
    expect((await pull(ali, first.checkpoint)).rows.map((r) => [r.id, r.deleted_at])).toEqual([[entry.id, null]]);
    expect(await server.db.selectFrom('entry_access_revocations').select('user_id').where('entry_id', '=', entry.id).execute()).toEqual([]);
  });

  it('a manager gets a tombstone when sharing with management is turned off, unless shared with them by name', async () => {
    const cp0 = (await pull(priya, START)).checkpoint;
    const byRole = await create([['description', 'For the managers'], ['shared_with_management', '1']]);
    const byName = await create([['description', 'For Priya by name too'], ['shared_with_management', '1'], ['shared_with[]', user('manager.priya')]]);
    const seen = await pull(priya, cp0);
    expect(seen.rows.map((r) => r.id)).toEqual([byRole.id, byName.id]);
    const aliBefore = (await pull(ali, START)).checkpoint;

    await update(byRole.id, [['shared_with_management', '0']]);
    await update(byName.id, [['shared_with_management', '0']]);
    const after = await pull(priya, seen.checkpoint);
    expect(after.rows.map((r) => [r.id, r.deleted_at !== null])).toEqual([[byRole.id, true], [byName.id, false]]);
    expect(after.rows[0]).toEqual(tombstone(byRole.id, after.rows[0]!.updated_at));
    // Ali is not a manager: he never read either, so he hears of neither.
    expect((await pull(ali, aliBefore)).rows.map((r) => r.id)).toEqual([]);

    await update(byRole.id, [['shared_with_management', '1']]);
    expect((await pull(priya, after.checkpoint)).rows.map((r) => [r.id, r.deleted_at])).toEqual([[byRole.id, null]]);
  });

  it('someone who never had access gets no tombstone: nothing says a private entry exists', async () => {
    const cpBeth = (await pull(beth, START)).checkpoint;
    const cpAli = (await pull(ali, START)).checkpoint;
    const secret = await create([['description', 'Nobody else']]);
    await update(secret.id, [['description', 'Still nobody else'], ['shared_with[]', '']]);
    const shared = await create([['description', 'Ali only'], ['shared_with[]', user('carer.ali')]]);
    await update(shared.id, [['shared_with[]', '']]);
    const beths = await pull(beth, cpBeth);
    expect(beths.rows.map((r) => r.id)).toEqual([]);
    expect((await pull(beth, START)).rows.map((r) => r.id)).not.toContain(shared.id);
    expect((await pull(ali, cpAli)).rows.map((r) => [r.id, r.deleted_at !== null])).toEqual([[shared.id, true]]);
    expect(await server.db.selectFrom('entry_access_revocations').select('user_id').where('entry_id', '=', secret.id).execute()).toEqual([]);
  });

  it('a revocation of an entry that is readable again another way is no tombstone (never a row twice)', async () => {
    const entry = await create([['description', 'Shared two ways'], ['shared_with[]', user('carer.ali')], ['shared_with_management', '1']]);
    const cp = (await pull(ali, START)).checkpoint;
    await update(entry.id, [['shared_with[]', '']]);
    expect((await pull(ali, cp)).rows.map((r) => [r.id, r.deleted_at !== null])).toEqual([[entry.id, true]]);
    // Ali is made a manager: he reads it through management sharing, his revocation still stands.
    const employee = await server.db.selectFrom('users').select('user_type_id').where('id', '=', user('carer.ali')).executeTakeFirstOrThrow();
    await server.db.updateTable('users').set({ user_type_id: 3 }).where('id', '=', user('carer.ali')).execute();
    try {
      expect((await pull(ali, START)).rows.filter((r) => r.id === entry.id).map((r) => r.deleted_at)).toEqual([null]);
      expect((await pull(ali, cp)).rows.map((r) => [r.id, r.deleted_at])).toEqual([[entry.id, null]]);
    } finally {
      await server.db.updateTable('users').set({ user_type_id: employee.user_type_id }).where('id', '=', user('carer.ali')).execute();
    }
  });

  it('only checkpoint pulls with with_trashed=1 carry tombstones', async () => {
    const entry = await create([['description', 'Briefly shared'], ['shared_with[]', user('carer.ali')]]);
    await update(entry.id, [['shared_with[]', '']]);
    const all = journalPageSchema.parse((await ali.get(`${JOURNAL}?with_trashed=1&per_page=500`)).body);
    expect(all.data.map((r) => r.id)).not.toContain(entry.id);
    const live = journalPageSchema.parse((await ali.get(`${JOURNAL}?per_page=500&checkpoint[updated_at]=${encodeURIComponent(START.updated_at)}&checkpoint[id]=${NIL}`)).body);
    expect(live.data.map((r) => r.id)).not.toContain(entry.id);
    expect((await pull(ali, START)).rows.filter((r) => r.id === entry.id).map((r) => r.deleted_at !== null)).toEqual([true]);
  });

  it('pages over a mix of tombstones and rows (per_page=1 and 2) neither skip nor repeat', async () => {
    const cp0 = (await pull(ali, START)).checkpoint;
    const shared: [string, FormValue] = ['shared_with[]', user('carer.ali')];
    const [e1, e2, e3, e4] = [await create([['description', 'Mix one'], shared]), await create([['description', 'Mix two'], shared]), await create([['description', 'Mix three'], shared]), await create([['description', 'Mix four'], shared])];
    await update(e2!.id, [['shared_with[]', '']]);
    await update(e1!.id, [['description', 'Mix one, edited']]);
    await update(e4!.id, [['shared_with[]', '']]);
    await update(e3!.id, [['description', 'Mix three, edited']]);
    const expected = [[e2!.id, true], [e1!.id, false], [e4!.id, true], [e3!.id, false]];

    const whole = await pull(ali, cp0);
    expect(whole.rows.map((r) => [r.id, r.deleted_at !== null])).toEqual(expected);
    const ones = await pull(ali, cp0, 1);
    expect(ones.rows.map((r) => [r.id, r.deleted_at !== null])).toEqual(expected);
    expect(ones.pages).toEqual([1, 1, 1, 1]);
    expect(ones.checkpoint).toEqual(whole.checkpoint);
    const twos = await pull(ali, cp0, 2);
    expect(twos.rows.map((r) => [r.id, r.deleted_at !== null])).toEqual(expected);
    expect(twos.pages).toEqual([2, 2]);
    expect((await pull(ali, whole.checkpoint, 1)).rows).toEqual([]);
  });

  it('voice entries: the tombstone parses as a voice entry', async () => {
    const cp0 = (await pull(ali, START, 500, VOICE)).checkpoint;
    const category = await server.db.selectFrom('voice_categories').select('id').where('name', '=', 'Message staff').where('tenant_id', '=', (await server.db.selectFrom('users').select('tenant_id').where('id', '=', user('jamie')).executeTakeFirstOrThrow()).tenant_id).executeTakeFirstOrThrow();
    const entry = await create([['category_id', category.id], ['description', 'Can Ali take me to practice?'], ['shared_with[]', user('carer.ali')]], VOICE);
    const seen = await pull(ali, cp0, 500, VOICE);
    expect(seen.rows.map((r) => r.id)).toEqual([entry.id]);
    await update(entry.id, [['shared_with[]', '']], VOICE);
    const gone = await pull(ali, seen.checkpoint, 500, VOICE);
    const { entry_date: _d, entry_time: _t, ...common } = tombstone(entry.id, gone.rows[0]?.updated_at ?? '');
    expect(gone.rows).toEqual([{ ...common, category_id: NIL }]);
  });
});

describe('staff see and answer only what was shared with them', () => {
  const COMMENTS = `${JOURNAL}/comments`;
  const FEEDBACK = '/api/v1/projects/residents/feedback';

  it('a carer of the home cannot comment on a private entry, nor on one shared with someone else (404, nothing stored)', async () => {
    const privateEntry = await create([['description', 'Only for me, about my family']]);
    const forBeth = await create([['description', 'For Beth only'], ['shared_with[]', user('carer.beth')]]);
    for (const entry of [privateEntry, forBeth]) {
      const res = await postForm(server.base, ali, COMMENTS, [['entry_id', entry.id], ['comment', 'I read this']]);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toMatch(/family|Beth only/);
      expect(await server.db.selectFrom('entry_comments').select('id').where('entry_id', '=', entry.id).execute()).toEqual([]);
    }
    // Positive control: Beth, with whom it was shared, can.
    const ok = await postForm<Answer<Comment>>(server.base, beth, COMMENTS, [['entry_id', forBeth.id], ['comment', 'Thanks for telling me']]);
    expect(ok.status).toBe(201);
    expect(commentResponseSchema.parse(ok.body).data.entry_id).toBe(forBeth.id);
  });

  it('a staff member taken off an entry no longer sees its thread (excerpt and latest comment) in feedback', async () => {
    const entry = await create([['description', 'Worried about school tomorrow'], ['shared_with[]', user('carer.ali')]]);
    const comment = await postForm(server.base, ali, COMMENTS, [['entry_id', entry.id], ['comment', 'Let us talk after tea']]);
    expect(comment.status).toBe(201);
    const threads = async (client: Client) => {
      const res = await client.get(`${FEEDBACK}?per_page=500`);
      expect(res.status).toBe(200);
      return JSON.stringify(res.body);
    };
    expect(await threads(ali)).toContain('Worried about school');
    expect(await threads(jamie)).toContain('Worried about school');
    // Beth works in the same home but the entry was never shared with her.
    expect(await threads(beth)).not.toContain('Worried about school');

    await update(entry.id, [['shared_with[]', '']]);
    const after = await threads(ali);
    expect(after).not.toContain('Worried about school');
    expect(after).not.toContain('Let us talk after tea');
    expect(await threads(jamie)).toContain('Worried about school');
  });
});
