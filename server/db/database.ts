import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { preparingPool } from './prepared-statements';
import type { Database } from './schema';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: the connection string (a dedicated listening connection needs it too). */
  url?: string;
  /** The schema the tables live in when it is not the default one (tests on PostgreSQL). */
  schema?: string;
  close(): Promise<void>;
}

/** Which database a server runs on, as far as more than one process is concerned (app.ts). */
export type DatabaseInfo = { kind: 'pglite' } | { kind: 'postgres'; url: string; schema?: string };

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir: string | null /* null: in memory */ }
  | { kind: 'postgres'; url: string; schema?: string; dropSchemaOnClose?: boolean };

/** `date` columns stay 'YYYY-MM-DD' strings: a calendar day has no time zone to shift it. */
const DATE_OID = 1082;
const identity = (value: string) => value;

/** Kysely's query log (tests: which statements a request ran). */
export interface DatabaseExtras {
  log?: KyselyConfig['log'];
}

export async function openDatabase(options: DatabaseOptions, extras: DatabaseExtras = {}): Promise<DatabaseHandle> {
  if (options.kind === 'pglite') {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    const pglite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      parsers: { [pgliteTypes.DATE]: identity },
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...extras });
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy();
        await pglite.close();
      },
    };
  }

  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  if (schema) {
    // The schema must exist before connections that put it first in their search_path are used.
    const admin = new pg.Client({ connectionString: options.url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({ ...postgresConnection({ url: options.url, schema }), max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), ...extras });
  // A search_path set in DATABASE_URL (`?options=-c search_path=...`) names the schema the same way.
  const current = schema ?? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  const inSchema = current && current !== 'public' ? current : undefined;
  return {
    db,
    kind: 'postgres',
    url: options.url,
    ...(inSchema ? { schema: inSchema } : {}),
    async close() {
      if (schema && options.dropSchemaOnClose) await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
      await db.destroy();
    },
  };
}

/**
 * How every connection of this server to PostgreSQL is made, the pool's and the change feed's
 * (lib/postgres-notifier.ts): the schema first in the search path (tests), dates as strings, and
 * an application_name that lib/sync-horizon.ts uses to find this server's open transactions
 * (`hearth`, or `hearth:<schema>`; a DATABASE_URL that sets application_name wins, consistently).
 */
export function postgresConnection(info: { url: string; schema?: string }): pg.ClientConfig {
  return {
    connectionString: info.url,
    application_name: info.schema ? `hearth:${info.schema}` : 'hearth',
    ...(info.schema ? { options: `-c search_path=${info.schema}` } : {}),
    // A dead peer (a restarted database, a dropped route) is noticed instead of waited on forever.
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID ? identity : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  };
}

/**
 * Runs `work` (migrations, the demo seed) while holding a PostgreSQL advisory lock, so that servers
 * starting at the same moment on several machines take turns: the migrator has a lock of its own,
 * the seed does not. The lock is a session's: it goes with the connection if the process dies.
 * The embedded database has one process: `work` just runs.
 */
export async function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgres' || !handle.url) return work();
  const client = new pg.Client(postgresConnection({ url: handle.url, schema: handle.schema }));
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [`hearth:startup:${handle.schema ?? 'public'}`]);
    return await work();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server's database: PostgreSQL when DATABASE_URL is set, otherwise PGlite in DATA_DIR/pgdata. */
export function databaseOptionsFor(config: { databaseUrl: string | null; dataDir: string }): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: join(config.dataDir, 'pgdata') };
}

/**
 * An isolated database for one test file: PGlite in memory, or with DATABASE_URL set a fresh
 * random schema on that server, dropped on close.
 */
export function openTestDatabase(extras: DatabaseExtras = {}): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    return openDatabase({ kind: 'postgres', url, schema, dropSchemaOnClose: true }, extras);
  }
  return openDatabase({ kind: 'pglite', dataDir: null }, extras);
}
