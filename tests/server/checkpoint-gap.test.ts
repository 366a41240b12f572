import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { journalPageSchema, type JournalEntry } from '../../src/contract/entries';
import { residentDetailsResponseSchema, type ResidentDetails } from '../../src/contract/residents';
import { appendPoints } from '../../server/domain/tasks/points';
import type { Checkpoint } from '../../src/contract/sync';
import { fetchPage, parseListQuery, syncColumns, type ListSpec } from '../../server/lib/list-query';
import type { SyncHorizon } from '../../server/lib/sync-horizon';
import type { Client } from './support/client';
import { signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * Issue 13, the checkpoint gap: a row whose transaction commits after a client pulled must still
 * reach that client. Rows are stamped with now(), the start of their transaction; a pull while
 * that transaction is open used to hand out a checkpoint past the row (a later-stamped row had
 * committed first), and the row was skipped for ever. These tests hold a transaction open across
 * a pull. On PostgreSQL the pull's page stops before any row the open transaction could precede
 * (lib/sync-horizon.ts); on the embedded database a pull cannot run while a transaction is open
 * (one connection), so it waits and there is no gap to close.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let server: TestServer;
let jamie: Client;

beforeAll(async () => {
  server = await startTestServer();
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = '/api/v1/projects/residents/journal/entries';
const START: Checkpoint = { updated_at: '1970-01-01T00:00:00.000000Z', id: '00000000-0000-0000-0000-000000000000' };

/** One page as the PWA's replication asks for it. */
async function pullPage(from: Checkpoint, perPage = 500) {
  const res = await jamie.get(
    `${JOURNAL}?sort[0][0]=updated_at&sort[0][1]=asc&sort[1][0]=id&sort[1][1]=asc&with_trashed=1&per_page=${perPage}&checkpoint[updated_at]=${encodeURIComponent(from.updated_at)}&checkpoint[id]=${from.id}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return journalPageSchema.parse(res.body);
}

/** Pages until has_more is false, as a replica walks them: rows in order and the checkpoint it keeps. */
async function pullAll(from: Checkpoint) {
  const rows: JournalEntry[] = [];
  let checkpoint = from;
  for (let i = 0; i < 50; i++) {
    const page = await pullPage(checkpoint);
    rows.push(...page.data);
    checkpoint = page.meta.checkpoint ?? checkpoint;
    if (!page.meta.has_more) return { rows, checkpoint };
  }
  throw new Error('pull did not end');
}

async function create(description: string): Promise<JournalEntry> {
  const res = await postForm<{ data: JournalEntry }>(server.base, jamie, JOURNAL, [['description', description]]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/**
 * Opens a transaction on the server's own pool that changes `entryId` (stamped now(), its start)
 * and keeps it open until `release` is called; resolves once the change is made.
 */
async function holdChange(entryId: string, description: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let changed!: () => void;
  const made = new Promise<void>((resolve) => (changed = resolve));
  const done = server.db.transaction().execute(async (tx) => {
    await tx.updateTable('journal_entries').set({ description, updated_at: sql`now()` }).where('id', '=', entryId).execute();
    changed();
    await released;
  });
  await made;
  return { commit: async () => (release(), done) };
}

describe.runIf(onPostgres)('on PostgreSQL: a transaction open across a pull', () => {
  it('the row it commits afterwards still reaches the client, and nothing comes twice', async () => {
    const held = await create('Written before, changed inside the long transaction');
    const { checkpoint: before } = await pullAll(START);

    // The long transaction changes `held` (stamped at its start); meanwhile another entry is
    // written and committed, stamped later. The pull sees only the later one.
    const open = await holdChange(held.id, 'Committed after the pull');
    const later = await create('Committed while the other transaction was open');
    // One page, as a replica's pull ends on a page shorter than it asked for.
    const during = await pullPage(before);
    await open.commit();
    const after = await pullAll(during.meta.checkpoint ?? before);

    // What the client holds in the end: the committed change is there.
    const seen = new Map([...during.data, ...after.rows].map((r) => [r.id, r.description]));
    expect(seen.get(held.id)).toBe('Committed after the pull');
    expect(seen.get(later.id)).toBe('Committed while the other transaction was open');
    // How: the page during the transaction stopped before anything it could precede (having
    // waited for it first) and said more was waiting; the next pull brought both, in order, once.
    expect(during.data.map((r) => r.id)).not.toContain(later.id);
    expect(during.meta.has_more).toBe(true);
    expect(after.rows.map((r) => r.id)).toEqual([held.id, later.id]);
    expect((await pullAll(after.checkpoint)).rows).toEqual([]);
  });

  it('a pull that starts while the transaction is open waits for it, and brings both rows in order', async () => {
    const held = await create('Another entry to change');
    const { checkpoint: before } = await pullAll(START);
    const open = await holdChange(held.id, 'Changed, committed during the pull');
    const later = await create('Committed first, stamped later');
    const pulling = pullPage(before);
    // The pull is waiting for the open transaction (it would otherwise answer at once with `later`).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await open.commit();
    const page = await pulling;
    expect(page.data.map((r) => r.id)).toEqual([held.id, later.id]);
    expect(page.meta.has_more).toBe(false);
    expect(page.meta.checkpoint).toEqual({ updated_at: later.updated_at, id: later.id });
  });
});

/** jamie's record as her replica pulls it whole (GET /v1/projects/residents/{id}). */
async function pullRecord(residentId: string): Promise<ResidentDetails> {
  const res = await jamie.get(`/api/v1/projects/residents/${residentId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return residentDetailsResponseSchema.parse(res.body).data;
}

describe.runIf(onPostgres)('on PostgreSQL: the young person’s record, pulled whole', () => {
  it('a write that began first and commits last is stamped after the copy clients already hold', async () => {
    const me = await jamie.get<{ user: { resident: { id: string } } }>('/api/v1/auth/user');
    const residentId = me.body.user.resident.id;
    const { tenant_id: tenantId } = await server.db.selectFrom('residents').select('tenant_id').where('id', '=', residentId).executeTakeFirstOrThrow();
    const before = await pullRecord(residentId);

    // A points award whose transaction began (its now() is taken) before jamie changes her style,
    // and writes her record after that change has committed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const beganAt = new Promise<void>((resolve) => (began = resolve));
    const award = server.db.transaction().execute(async (tx) => {
      await sql`select now()`.execute(tx);
      began();
      await released;
      await appendPoints(tx, { tenantId, residentId, delta: 5, reason: 'task_log_review', sourceId: randomUUID() });
    });
    await beganAt;
    const style = before.app_settings.kids_style === 'gaming_style' ? 'fun_style' : 'gaming_style';
    expect((await jamie.put(`/api/v1/projects/residents/${residentId}/app-settings`, { kids_style: style })).status).toBe(200);
    const held = await pullRecord(residentId);
    expect(held.app_settings.kids_style).toBe(style);
    release();
    await award;

    // The replica's single pull takes a copy only when its updated_at is after the one it holds
    // (src/data/replication/pull.ts): stamped with the award's now(), the new points never came.
    const after = await pullRecord(residentId);
    expect(after.reward_points).toBe(held.reward_points + 5);
    expect(after.updated_at > held.updated_at).toBe(true);
    expect(held.updated_at > before.updated_at).toBe(true);
  });
});

describe.runIf(!onPostgres)('on the embedded database: a transaction open across a pull', () => {
  it('the pull waits for the transaction (one connection), and brings the row it committed', async () => {
    const held = await create('Changed inside a transaction on PGlite');
    const { checkpoint: before } = await pullAll(START);
    const open = await holdChange(held.id, 'Committed while a pull waited');
    let answered = false;
    const pulling = pullAll(before).then((result) => ((answered = true), result));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await open.commit();
    expect((await pulling).rows.map((r) => [r.id, r.description])).toEqual([[held.id, 'Committed while a pull waited']]);
  });
});

describe('fetchPage and the horizon (lib/list-query.ts)', () => {
  const spec: ListSpec = { ...syncColumns('t'), fields: {}, sorts: {}, defaultSort: [['updated_at', 'asc']] };
  const row = (n: number) => ({ id: `00000000-0000-0000-0000-00000000000${n}`, updated_at: `2026-01-01T00:00:0${n}.000000Z` });
  const list = (query: Record<string, unknown> = {}) =>
    parseListQuery({ checkpoint: { updated_at: '2025-01-01T00:00:00.000000Z', id: '00000000-0000-0000-0000-000000000000' }, ...query }, spec);

  /** A horizon that answers `values` in turn (the last one for ever), counting waits. */
  function horizons(...values: (string | null)[]) {
    const taken: string[] = [];
    let i = 0;
    const next = () => values[Math.min(i++, values.length - 1)] ?? null;
    const horizon: SyncHorizon = {
      current: async () => next(),
      waitPast: async (stamp) => {
        taken.push(stamp);
        return next();
      },
    };
    return { horizon, waits: taken };
  }

  it('answers at once when every row is before the horizon', async () => {
    const { horizon, waits } = horizons('2026-01-01T00:00:09.000000Z');
    const page = await fetchPage(horizon, list(), async () => [row(1), row(2)]);
    expect(page.data).toEqual([row(1), row(2)]);
    expect(page.meta).toEqual({ per_page: 50, has_more: false, checkpoint: { updated_at: row(2).updated_at, id: row(2).id } });
    expect(waits).toEqual([]);
  });

  it('waits past the newest row, runs the query again, and keeps only what is before the new horizon', async () => {
    const { horizon, waits } = horizons('2026-01-01T00:00:02.000000Z', '2026-01-01T00:00:03.500000Z');
    let runs = 0;
    const page = await fetchPage(horizon, list(), async () => (++runs === 1 ? [row(1), row(3)] : [row(1), row(2), row(3), row(4)]));
    expect(waits).toEqual([row(3).updated_at]);
    expect(runs).toBe(2);
    expect(page.data).toEqual([row(1), row(2), row(3)]);
    expect(page.meta).toEqual({ per_page: 50, has_more: true, checkpoint: { updated_at: row(3).updated_at, id: row(3).id } });
  });

  it('with nothing before the horizon, an empty page that keeps the checkpoint the client has', async () => {
    const { horizon } = horizons('2026-01-01T00:00:00.000000Z');
    const page = await fetchPage(horizon, list(), async () => [row(1)]);
    expect(page.data).toEqual([]);
    expect(page.meta).toEqual({ per_page: 50, has_more: true, checkpoint: null });
  });

  it('other sorts and the embedded database (no horizon) answer at once', async () => {
    const { horizon, waits } = horizons('2026-01-01T00:00:00.000000Z');
    const sorted = parseListQuery({ sort: [['id', 'desc']] }, spec);
    expect((await fetchPage(horizon, sorted, async () => [row(2), row(1)])).data).toHaveLength(2);
    expect((await fetchPage(horizons(null).horizon, list(), async () => [row(1), row(2)])).data).toHaveLength(2);
    expect(waits).toEqual([]);
  });
});
