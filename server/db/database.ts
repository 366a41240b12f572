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
  /** The schema the tables live in when it is not the default one (tests on PostgreSQL). */
  schema?: string;
  close(): Promise<void>;
}

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
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID ? identity : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), ...extras });
  return {
    db,
    kind: 'postgres',
    ...(schema ? { schema } : {}),
    async close() {
      if (schema && options.dropSchemaOnClose) await sql.raw(`drop schema if exists ${schema} cascade`).execute(db);
      await db.destroy();
    },
  };
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
