import { sql } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../server/db/compiled-once';
import { openTestDatabase, type DatabaseHandle } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrate';
import { MAX_PER_CONNECTION, preparingPool } from '../../server/db/prepared-statements';

/** Issue 13, server throughput: statements prepared per connection, and queries compiled once. */
describe('preparingPool', () => {
  /** A pg client that records what it was asked to run. */
  function fakePool() {
    const sent: { name?: string; text: string }[] = [];
    const released: number[] = [];
    const client = {
      query: async (config: { name?: string; text: string } | object) => {
        if ('text' in config) sent.push({ ...(config.name ? { name: config.name } : {}), text: config.text });
        return { rows: [], rowCount: 0, command: 'SELECT' };
      },
      release: () => released.push(1),
    };
    const pool = { connect: async () => client, end: async () => undefined } as unknown as pg.Pool;
    return { pool: preparingPool(pool), sent, released };
  }

  it('names a statement by its text from its second run, the same name each time, and releases the connection', async () => {
    const { pool, sent, released } = fakePool();
    const client = await pool.connect();
    await client.query('select $1::int as a', [1]);
    await client.query('select $1::int as a', [2]);
    await client.query('select $1::int as a', [3]);
    await client.query('select $1::int as b', [4]);
    client.release();
    expect(sent[0]!.name).toBeUndefined();
    expect(sent[1]!.name).toBeTruthy();
    expect(sent[2]!.name).toBe(sent[1]!.name);
    expect(sent[3]!.name).toBeUndefined();
    expect(released).toHaveLength(1);
  });

  it(`prepares at most ${MAX_PER_CONNECTION} statements on a connection, sends the rest unnamed, and keeps the ones it has`, async () => {
    const { pool, sent } = fakePool();
    const client = await pool.connect();
    for (let i = 0; i < MAX_PER_CONNECTION + 5; i++) await client.query(`select ${i} as n where $1::int = 1`, [1]);
    sent.length = 0; // each text's first run: unnamed
    for (let i = 0; i < MAX_PER_CONNECTION + 5; i++) await client.query(`select ${i} as n where $1::int = 1`, [1]);
    await client.query('select 0 as n where $1::int = 1', [1]);
    expect(sent.slice(0, MAX_PER_CONNECTION).every((s) => s.name)).toBe(true);
    expect(sent.slice(MAX_PER_CONNECTION, MAX_PER_CONNECTION + 5).every((s) => s.name === undefined)).toBe(true);
    expect(sent.at(-1)!.name).toBe(sent[0]!.name);
  });

  it('a connection that ran hundreds of statements once (migrations, the seed) still prepares what requests run again', async () => {
    const { pool, sent } = fakePool();
    const client = await pool.connect();
    for (let i = 0; i < MAX_PER_CONNECTION + 50; i++) await client.query(`insert into seeded values (${i}, $1)`, ['x']);
    expect(sent.every((s) => s.name === undefined)).toBe(true);
    await client.query('select * from sessions where id = $1', ['one']);
    await client.query('select * from sessions where id = $1', ['two']);
    // Before, the one-off statements had taken every slot: the request's ran unnamed for good (x1.5-1.7 slower).
    expect(sent.at(-1)!.name).toBeTruthy();
  });
});

describe('compiledOnce (on the test database: PGlite, or PostgreSQL with DATABASE_URL)', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
    await migrateToLatest(handle.db, handle.schema);
  });
  afterAll(async () => handle?.close());

  it('puts each run’s values in their places, arrays too', async () => {
    const query = compiledOnce((_db, v: { a: number; b: string; list: string[] }) =>
      sql<{ a: number; b: string; n: number }>`select ${v.a}::int as a, ${v.b}::text as b, cardinality(cast(${v.list} as text[]))::int as n`,
    );
    expect(await query(handle.db, { a: 1, b: 'one', list: ['x'] })).toEqual([{ a: 1, b: 'one', n: 1 }]);
    expect(await query(handle.db, { a: 2, b: 'two', list: ['x', 'y', 'z'] })).toEqual([{ a: 2, b: 'two', n: 3 }]);
  });

  it('builds the query once per database', async () => {
    let built = 0;
    const query = compiledOnce((db, v: { id: number }) => {
      built += 1;
      return db.selectFrom('user_types').select('system_name').where('id', '=', v.id);
    });
    expect(await query(handle.db, { id: 1 })).toEqual([{ system_name: 'young_person_user' }]);
    expect(await query(handle.db, { id: 3 })).toEqual([{ system_name: 'manager' }]);
    expect(built).toBe(1);
  });
});
