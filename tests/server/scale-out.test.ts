import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Document } from '../../src/contract/documents';
import { journalEntryResponseSchema } from '../../src/contract/entries';
import type { PostgresNotifier } from '../../server/lib/postgres-notifier';
import { changeMessages, endedMessage } from '../../server/lib/postgres-notifier';
import { WAIT_MS } from '../support/timeouts';
import { Client } from './support/client';
import { browserHeaders, demoIds, openStream, signedIn, type OpenStream } from './support/session';
import { startPeerServer, startTestServer, type TestServer } from './support/server';
import { PDF, postForm } from './support/uploads';

/**
 * Issue 13, scale out: two server processes on one PostgreSQL (A and B: separate apps with their
 * own connections, change feeds and memory, sharing only the database and APP_KEY, as processes
 * behind one proxy do). A write through A reaches the event streams held on B, with the same
 * per-person rule as on one process (issue 12, finding 7); a sign-out through A ends a stream on
 * B; files uploaded through A are read whole, and in ranges, through B; B's change feed recovers
 * when its connection is cut; the auth ceiling is one count for both. tests/server/cluster.test.ts
 * does the same with real processes (WORKERS=2).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  if (!onPostgres) return;
  a = await startTestServer();
  b = await startPeerServer(a);
  ids = await demoIds(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/** The same browser (its cookies) talking to the other process. */
function via(server: TestServer, client: Client): Client {
  const other = new Client(server.base);
  for (const [name, value] of client.jar) other.jar.set(name, value);
  return other;
}

const JOURNAL = '/api/v1/projects/residents/journal/entries';
const changes = (stream: OpenStream) => stream.text().split('event: change').length - 1;
const all = (n: number) => new RegExp(`(event: change[\\s\\S]*){${n}}`);

describe.runIf(onPostgres)('two processes on one PostgreSQL', () => {
  it('a write through A reaches the streams held on B, each person hearing only of what they may read', async () => {
    const [jamie, ali, beth, priya] = await Promise.all([signedIn(a, 'jamie'), signedIn(a, 'carer.ali'), signedIn(a, 'carer.beth'), signedIn(a, 'manager.priya')]);
    const streams = await Promise.all([openStream(b, jamie), openStream(b, ali), openStream(b, beth), openStream(b, priya)]);
    const [own, aliStream, bethStream, priyaStream] = streams;
    try {
      await Promise.all(streams.map((s) => s.waitFor(/: connected/, WAIT_MS)));
      const write = async (fields: [string, string][]) => expect((await postForm(a.base, jamie, JOURNAL, fields)).status).toBe(201);
      await write([['description', 'Just for me']]);
      await write([['description', 'For Ali'], ['shared_with[]', ids.user['demo/carer.ali']!]]);
      await write([['description', 'For the managers'], ['shared_with_management', '1']]);
      await write([['description', 'For everyone'], ['shared_with[]', ids.user['demo/carer.ali']!], ['shared_with[]', ids.user['demo/carer.beth']!], ['shared_with_management', '1']]);
      // One process's messages arrive in the order it sent them: once a stream has its last
      // expected event, any earlier one meant for it has arrived, so the counts are exact.
      await own!.waitFor(all(4), WAIT_MS);
      await aliStream!.waitFor(all(2), WAIT_MS);
      await priyaStream!.waitFor(all(2), WAIT_MS);
      await bethStream!.waitFor(all(1), WAIT_MS);
      expect(streams.map(changes)).toEqual([4, 2, 1, 2]);
      expect(own!.text()).toContain('event: change\ndata: {"collections":["journal"]}');
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('signing out through A ends the stream held on B at once', async () => {
    const device = await signedIn(a, 'jamie');
    const stream = await openStream(b, device);
    await stream.waitFor(/: connected/, WAIT_MS);
    const started = Date.now();
    expect((await device.post('/api/auth/logout', {})).status).toBeLessThan(300);
    await stream.ended;
    // Not the ping (every 25 s) that would notice otherwise.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a journal upload through A is read whole through B', async () => {
    const jamie = await signedIn(a, 'jamie');
    const bytes = Buffer.concat([PDF, randomBytes(700 * 1024)]);
    const created = await postForm(a.base, jamie, JOURNAL, [['description', 'With notes'], ['files[0]', { name: 'notes.pdf', data: bytes, type: 'application/pdf' }]]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const entry = journalEntryResponseSchema.parse(created.body).data;
    const res = await fetch(`${b.base}/api/v1/files/view?file_id=${entry.files[0]!.id}&module=journal`, { headers: { cookie: browserHeaders(via(b, jamie)).cookie! } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    // Nothing of it on A's disk: the bytes are in the database, where B found them.
    const stored = await a.db.selectFrom('stored_files').select(['size']).where('size', '=', bytes.length).execute();
    expect(stored).toHaveLength(1);
  });

  it('a document shared through A is read through B whole and in ranges across its chunks', async () => {
    const ali = await signedIn(a, 'carer.ali');
    const jamie = await signedIn(a, 'jamie');
    const bytes = Buffer.concat([PDF, randomBytes(900 * 1024)]);
    const shared = await postForm<{ data: Document }>(a.base, ali, '/api/v1/documents', [
      ['kind', 'file'], ['title', 'Big letter'], ['resident_id', ids.resident['demo/jamie']!], ['file', { name: 'letter.pdf', data: bytes }],
    ]);
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const blob = shared.body.data.file!.blob;
    const get = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${b.base}/api${blob}`, { headers: { cookie: browserHeaders(via(b, jamie)).cookie!, ...headers } });
      return { status: res.status, range: res.headers.get('content-range'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(bytes)).toBe(true);
    // 256 KiB chunks: a range inside one, one across two boundaries, the suffix.
    for (const [start, end] of [[10, 99], [262_000, 530_000], [bytes.length - 5000, bytes.length - 1]] as const) {
      const part = await get({ range: `bytes=${start}-${end}` });
      expect(part.status).toBe(206);
      expect(part.range).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(part.bytes.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it("when B's change feed connection is cut, B tells its streams to pull everything, and listens again", async () => {
    const jamie = await signedIn(a, 'jamie');
    const stream = await openStream(b, jamie);
    try {
      await stream.waitFor(/: connected/, WAIT_MS);
      const notifier = b.app.notifier as PostgresNotifier;
      const pid = notifier.listenerPid;
      expect(pid).not.toBeNull();
      await sql`select pg_terminate_backend(${pid})`.execute(a.db);
      // Everything: whatever was sent while B was not listening is lost, so its replicas pull it all.
      await stream.waitFor(/"collections":\["resident","associated_users",[^\]]*"documents"\]/, WAIT_MS);
      expect(notifier.listenerPid).not.toBe(pid);
      const before = changes(stream);
      expect((await postForm(a.base, jamie, JOURNAL, [['description', 'After the cut']])).status).toBe(201);
      await stream.waitFor(all(before + 1), WAIT_MS);
    } finally {
      stream.close();
    }
  });
});

describe.runIf(onPostgres)('the coarse auth ceiling across processes', () => {
  let c: TestServer;
  let d: TestServer;
  beforeAll(async () => {
    c = await startTestServer({ limits: { authRequestsPerMinute: 6 } });
    d = await startPeerServer(c, { limits: { authRequestsPerMinute: 6 } });
  });
  afterAll(async () => {
    await d?.close();
    await c?.close();
  });

  it('is one count for both processes: six requests spread over them, then 429 on either', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await new Client(i % 2 ? d.base : c.base).get('/api/auth/csrf-cookie')).status);
    expect(answers.every((s) => s < 400)).toBe(true);
    const over = await new Client(c.base).get('/api/auth/csrf-cookie');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await new Client(d.base).get('/api/auth/csrf-cookie')).status).toBe(429);
  });
});

describe('change notifications as messages (lib/postgres-notifier.ts)', () => {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const scope = (readers?: number) => ({
    tenantId: uuid(1),
    homeId: uuid(2),
    residentId: uuid(3),
    ...(readers === undefined ? {} : { readers: { userIds: Array.from({ length: readers }, (_, i) => uuid(100 + i)), managers: true } }),
  });
  const parse = (message: string) => JSON.parse(message) as { k: string; s: { t: string; h: string; r: string; u?: string[]; m?: boolean }; c: string[] };

  it('carry ids and topic names only; an entry shared with the most people fits in one', () => {
    const [plain] = changeMessages('origin', scope(), ['journal']);
    expect(parse(plain!)).toEqual({ v: 1, o: 'origin', k: 'change', s: { t: uuid(1), h: uuid(2), r: uuid(3) }, c: ['journal'] });
    // shared_with holds at most 50 ids; an update names the old and the new readers: 100.
    const most = changeMessages('origin', scope(100), ['journal', 'feedback']);
    expect(most).toHaveLength(1);
    expect(Buffer.byteLength(most[0]!)).toBeLessThan(8000);
  });

  it('split the readers over several messages when one would be too long, none of them lost', () => {
    const messages = changeMessages('origin', scope(40), ['journal'], 600);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(Buffer.byteLength(message)).toBeLessThanOrEqual(600);
    const parsed = messages.map(parse);
    expect(parsed.flatMap((m) => m.s.u)).toEqual(scope(40).readers!.userIds);
    expect(parsed.every((m) => m.s.m === true && m.s.r === uuid(3) && m.c[0] === 'journal')).toBe(true);
  });

  it('name the sessions that ended', () => {
    expect(JSON.parse(endedMessage('origin', { tenantId: uuid(1), userId: uuid(5), exceptSessionId: uuid(6) }))).toEqual({ v: 1, o: 'origin', k: 'ended', e: { t: uuid(1), u: uuid(5), x: uuid(6) } });
  });
});
