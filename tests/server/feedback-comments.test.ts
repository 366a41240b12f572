import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentResponseSchema } from '../../src/contract/comments';
import { feedbackCountsResponseSchema, feedbackPageSchema } from '../../src/contract/feedback';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { changeEventSchema, IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import type { Client } from './support/client';
import { browserHeaders, demoIds, openStream, signedIn, signedInRiley } from './support/session';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let riley: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  jamie = await signedIn(server, 'jamie');
  ali = await signedIn(server, 'carer.ali');
  riley = await signedInRiley(server);
});
afterAll(async () => {
  await server?.close();
});

const FEEDBACK =
  '/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]=%3D&filters[0][2]=journal&filters[1][0]=locked_at&filters[1][1]=null' +
  '&filters[2][0]=awaiting_resident_response&filters[2][1]=%3D&filters[2][2]=1&relations[0]=entry&relations[1]=reaction&relations[2]=resident' +
  '&relations[3]=category&relations[4]=latest_comment&sort[0][0]=comment_id&sort[0][1]=desc';
const JOURNAL_COMMENTS = '/api/v1/projects/residents/journal/entries/comments';
const VOICE_COMMENTS = '/api/v1/projects/residents/voices/entries/comments';

async function entryOf(username: string, type: 'journal' | 'voice', contains: string): Promise<string> {
  const table = type === 'journal' ? 'journal_entries' : 'voice_entries';
  const row = await server.db
    .selectFrom(table)
    .select(`${table}.id` as 'journal_entries.id')
    .where('resident_id', '=', ids.resident[`demo/${username}`]!)
    .where('description', 'like', `%${contains}%`)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function counts(client: Client) {
  return feedbackCountsResponseSchema.parse((await client.get('/api/v1/projects/residents/feedback/counts')).body).data;
}

describe('GET /api/v1/projects/residents/feedback', () => {
  it("jamie's journal threads awaiting him, newest comment first, with every relation", async () => {
    const res = await jamie.get(FEEDBACK);
    expect(res.status).toBe(200);
    const page = feedbackPageSchema.parse(res.body);
    expect(page.data.map((f) => f.entry.excerpt.slice(0, 20))).toEqual(["Nan's visit was real", 'Feeling a bit nervou']);
    const [nan, test] = page.data;
    expect(nan).toMatchObject({ type: 'journal', count: 2, awaiting_resident_response: true, locked_at: null, category: null, resident_id: ids.resident['demo/jamie'] });
    expect(nan!.latest_comment).toMatchObject({ creator: { first_name: 'Dan' }, comment: expect.stringContaining('proud') });
    expect(test).toMatchObject({ count: 1, latest_comment: { creator: { first_name: 'Beth' } } });
    expect(nan!.comment_id > test!.comment_id).toBe(true);
    const asc = feedbackPageSchema.parse((await jamie.get(FEEDBACK.replace('sort[0][1]=desc', 'sort[0][1]=asc'))).body);
    expect(asc.data.map((f) => f.id)).toEqual([test!.id, nan!.id]);
  });

  it('voice threads carry their category; all threads include answered ones; sam sees only his', async () => {
    const voice = feedbackPageSchema.parse((await jamie.get('/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]=%3D&filters[0][2]=voice')).body);
    expect(voice.data.map((f) => [f.category?.name, f.awaiting_resident_response])).toEqual([
      ['Make a complaint', true],
      ['Raise a concern', false],
    ]);
    // Five open threads and the seed's closed conversation (demo-entries.ts LOCKED_ENTRY).
    const all = feedbackPageSchema.parse((await jamie.get('/api/v1/projects/residents/feedback')).body);
    expect(all.data).toHaveLength(6);
    expect(all.data.every((f) => f.resident_id === ids.resident['demo/jamie'])).toBe(true);
    const sam = await signedIn(server, 'sam');
    const samPage = feedbackPageSchema.parse((await sam.get('/api/v1/projects/residents/feedback')).body);
    expect(samPage.data.map((f) => f.resident_id)).toEqual([ids.resident['demo/sam']]);
    const locked = feedbackPageSchema.parse((await jamie.get('/api/v1/projects/residents/feedback?filters[0][0]=locked_at&filters[0][1]=not_null')).body);
    expect(locked.data.map((f) => [f.type, f.entry.excerpt, f.awaiting_resident_response, f.latest_comment.creator.first_name])).toEqual([
      ['journal', 'Had a row with Sam about the TV remote. Still annoyed.', true, 'Beth'],
    ]);
    expect(locked.data[0]!.locked_at).toMatch(/\.\d{6}Z$/);
  });

  it('counts per type of the threads awaiting a response (the closed one awaits nobody)', async () => {
    expect(await counts(jamie)).toEqual({ journal: 2, voice: 1 });
  });

  it('refuses unknown relations and filter fields', async () => {
    const relation = await jamie.get('/api/v1/projects/residents/feedback?relations[]=password_hash');
    expect(relation.status).toBe(422);
    expect(relation.body).toHaveProperty('errors.relations');
    const field = await jamie.get('/api/v1/projects/residents/feedback?filters[0][0]=comment&filters[0][1]=%3D&filters[0][2]=x');
    expect(field.status).toBe(422);
    expect(field.body).toHaveProperty('errors.filters');
  });
});

describe('POST comments', () => {
  it("carer.ali's comment makes the thread await jamie and reaches jamie's open stream, not sam's or riley's", async () => {
    const entryId = await entryOf('jamie', 'journal', 'Tired today');
    const stream = await openStream(server, jamie);
    const samStream = await openStream(server, await signedIn(server, 'sam'));
    const rileyStream = await openStream(server, riley);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      expect(stream.headers.get('cache-control')).toBe('no-store');
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      await stream.waitFor(/: connected/);
      await samStream.waitFor(/: connected/);
      await rileyStream.waitFor(/: connected/);

      const res = await ali.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'Early night tonight? We could watch a film first.' });
      expect(res.status).toBe(201);
      const { data } = commentResponseSchema.parse(res.body);
      expect(data).toMatchObject({ entry_id: entryId, comment: 'Early night tonight? We could watch a film first.', reaction: null, files: [], creator: { id: ids.user['demo/carer.ali'], first_name: 'Ali' } });
      expect(data.updated_at).toMatch(/\.\d{6}Z$/);

      const text = await stream.waitFor(/event: change\ndata: .*\n\n/);
      const line = /event: change\ndata: (.*)\n/.exec(text)![1]!;
      expect(changeEventSchema.parse(JSON.parse(line)).collections.sort()).toEqual(['feedback', 'journal']);
      await new Promise((r) => setTimeout(r, 200));
      expect(samStream.text()).not.toContain('event: change');
      expect(rileyStream.text()).not.toContain('event: change');

      const page = feedbackPageSchema.parse((await jamie.get(FEEDBACK)).body);
      expect(page.data[0]).toMatchObject({ entry_id: entryId, comment_id: data.id, count: 1, awaiting_resident_response: true });
      expect(await counts(jamie)).toEqual({ journal: 3, voice: 1 });
    } finally {
      stream.close();
      samStream.close();
      rileyStream.close();
    }
  });

  it("jamie's reply clears the thread (count 0) and the stream of his key worker hears of it", async () => {
    const entryId = await entryOf('jamie', 'journal', 'science test');
    const aliStream = await openStream(server, ali);
    try {
      await aliStream.waitFor(/: connected/);
      const res = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'Yes please, Tuesday is good' });
      expect(res.status).toBe(201);
      await aliStream.waitFor(/event: change/);
      const row = await server.db.selectFrom('resident_feedback').selectAll().where('entry_id', '=', entryId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ count: 0, awaiting_resident_response: false, comment_id: commentResponseSchema.parse(res.body).data.id });
      expect((await counts(jamie)).journal).toBe(2);
    } finally {
      aliStream.close();
    }
  });

  it('a reply on a thread without staff comments makes no feedback row; a voice comment keeps the category', async () => {
    const quiet = await entryOf('jamie', 'voice', 'friends over');
    expect((await jamie.post(VOICE_COMMENTS, { entry_id: quiet, comment: 'Please!' })).status).toBe(201);
    expect(await server.db.selectFrom('resident_feedback').select('id').where('entry_id', '=', quiet).executeTakeFirst()).toBeUndefined();
    const res = await ali.post(VOICE_COMMENTS, { entry_id: quiet, reaction: '👍' });
    expect(res.status).toBe(201);
    const voice = feedbackPageSchema.parse((await jamie.get('/api/v1/projects/residents/feedback?filters[0][0]=entry_id&filters[0][1]=%3D&filters[0][2]=' + quiet)).body);
    expect(voice.data[0]).toMatchObject({ type: 'voice', count: 1, reaction: '👍', category: { name: 'Message staff' }, latest_comment: { comment: '👍' } });
  });

  it('accepts multipart and url-encoded forms; refuses files for now', async () => {
    const entryId = await entryOf('jamie', 'voice', 'merit');
    const form = new FormData();
    form.append('entry_id', entryId);
    form.append('comment', 'So proud of you!');
    const multipart = await fetch(`${server.base}${VOICE_COMMENTS}`, { method: 'POST', headers: browserHeaders(ali), body: form });
    expect(multipart.status).toBe(201);
    expect(commentResponseSchema.parse(await multipart.json()).data.comment).toBe('So proud of you!');

    const encoded = await fetch(`${server.base}${VOICE_COMMENTS}`, {
      method: 'POST',
      headers: { ...browserHeaders(ali), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ entry_id: entryId, comment: 'Merit number two next?' }).toString(),
    });
    expect(encoded.status).toBe(201);

    const withFile = new FormData();
    withFile.append('entry_id', entryId);
    withFile.append('comment', 'Look');
    withFile.append('files[0]', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const refused = await fetch(`${server.base}${VOICE_COMMENTS}`, { method: 'POST', headers: browserHeaders(ali), body: withFile });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toHaveProperty('errors.files');
    const row = await server.db.selectFrom('resident_feedback').select('count').where('entry_id', '=', entryId).executeTakeFirstOrThrow();
    expect(row.count).toBe(2);
  });

  it('validates the body; other residents and other homes get 404', async () => {
    const empty = await jamie.post(JOURNAL_COMMENTS, { entry_id: await entryOf('jamie', 'journal', 'Tired today') });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ errors: { comment: ['Comment is required'] } });
    const samEntry = await entryOf('sam', 'journal', 'kickflip');
    expect((await jamie.post(JOURNAL_COMMENTS, { entry_id: samEntry, comment: 'hi' })).status).toBe(404);
    expect((await ali.post(JOURNAL_COMMENTS, { entry_id: samEntry, comment: 'hi' })).status).toBe(404);
    expect((await riley.post(JOURNAL_COMMENTS, { entry_id: await entryOf('jamie', 'journal', 'Tired'), comment: 'hi' })).status).toBe(404);
    // The journal path does not reach voice entries.
    expect((await jamie.post(JOURNAL_COMMENTS, { entry_id: await entryOf('jamie', 'voice', 'merit'), comment: 'hi' })).status).toBe(404);
  });

  it('419 without the CSRF token, 401 without a session', async () => {
    const entryId = await entryOf('jamie', 'journal', 'Tired');
    const noCsrf = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'x' }, { csrf: false });
    expect(noCsrf.status).toBe(419);
    expect(noCsrf.body).toEqual({ success: false, message: chosen.csrfMissing });
    const guest = server.client();
    await guest.csrf();
    expect((await guest.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'x' })).status).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  const countComments = async (text: string) =>
    (await server.db.selectFrom('entry_comments').select('id').where('comment', '=', text).execute()).length;

  it('a repeat replays the stored answer without a second row', async () => {
    const entryId = await entryOf('jamie', 'journal', 'football');
    const body = { entry_id: entryId, comment: 'Replay me once' };
    const headers = { [IDEMPOTENCY_HEADER]: 'key-replay-1' };
    const first = await jamie.post(JOURNAL_COMMENTS, body, { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
    const again = await jamie.post(JOURNAL_COMMENTS, body, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countComments('Replay me once')).toBe(1);
  });

  it('two concurrent identical requests make one row and the same answer', async () => {
    const entryId = await entryOf('jamie', 'journal', 'football');
    const body = { entry_id: entryId, comment: 'Concurrent once' };
    const headers = { [IDEMPOTENCY_HEADER]: 'key-concurrent-1' };
    const [a, b] = await Promise.all([jamie.post(JOURNAL_COMMENTS, body, { headers }), jamie.post(JOURNAL_COMMENTS, body, { headers })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
    expect([a.headers.get(IDEMPOTENT_REPLAY_HEADER), b.headers.get(IDEMPOTENT_REPLAY_HEADER)].filter((h) => h === 'true')).toHaveLength(1);
    expect(await countComments('Concurrent once')).toBe(1);
    const keys = await server.db.selectFrom('idempotency_keys').select('id').where('key', '=', 'key-concurrent-1').execute();
    expect(keys).toHaveLength(1);
  });

  it('the same key with another body is a 422; keys are per person; 4xx answers are replayed too', async () => {
    const entryId = await entryOf('jamie', 'journal', 'football');
    const headers = { [IDEMPOTENCY_HEADER]: 'key-mismatch-1' };
    expect((await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'First body' }, { headers })).status).toBe(201);
    const other = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'Second body' }, { headers });
    expect(other.status).toBe(422);
    expect(other.body).toHaveProperty(['errors', IDEMPOTENCY_HEADER]);
    expect(await countComments('Second body')).toBe(0);
    // Another person's identical key is theirs alone.
    expect((await ali.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'Second body' }, { headers })).status).toBe(201);

    const bad = { [IDEMPOTENCY_HEADER]: 'key-invalid-1' };
    const invalid = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId }, { headers: bad });
    expect(invalid.status).toBe(422);
    const replayed = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId }, { headers: bad });
    expect(replayed.status).toBe(422);
    expect(replayed.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect(replayed.body).toEqual(invalid.body);

    const tooLong = await jamie.post(JOURNAL_COMMENTS, { entry_id: entryId, comment: 'x' }, { headers: { [IDEMPOTENCY_HEADER]: 'k'.repeat(101) } });
    expect(tooLong.status).toBe(422);
  });
});
