import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import type { Database } from './schema';
import { migrationProvider } from './migrations/index';

/**
 * What PostgreSQL answers when a schema or table vanishes while Kysely's migrator lists the tables
 * of every schema it may use (it calls has_schema_privilege and pg_get_serial_sequence on each):
 * invalid_schema_name, undefined_table, and undefined_column (a table dropped between its listing
 * and its columns' lookup: "column "created_at" of relation "idempotency_keys" does not exist",
 * seen once in CI's PostgreSQL pass at stop 45).
 */
const VANISHED = new Set(['3F000', '42P01', '42703']);
export const MIGRATE_ATTEMPTS = 8;

/**
 * Brings the schema up to date; throws (and so stops the start) when a migration fails. With a
 * schema, Kysely's bookkeeping tables go there too (it would otherwise find another schema's).
 */
export function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return migrateRetryingListing(
    new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) }),
  );
}

/**
 * Another schema dropped while the migrator lists tables (another test file's, on the database
 * CI's test files share) fails that listing before any migration has run; it is simply tried
 * again. A migration's own failure is never retried.
 */
export async function migrateRetryingListing(migrator: Pick<Migrator, 'migrateToLatest'>): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    const code = (error as { code?: unknown }).code;
    const raced = typeof code === 'string' && VANISHED.has(code) && (results ?? []).length === 0;
    if (!raced || attempt >= MIGRATE_ATTEMPTS) throw error instanceof Error ? error : new Error(String(error));
    await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}
