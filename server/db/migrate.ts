import { Migrator, type Kysely } from 'kysely';
import type { Database } from './schema';
import { migrationProvider } from './migrations/index';

/** PostgreSQL's invalid_schema_name. */
const SCHEMA_GONE = '3F000';

/**
 * Brings the schema up to date; throws (and so stops the start) when a migration fails. With a
 * schema, Kysely's bookkeeping tables go there too (it would otherwise find another schema's).
 * Kysely's migrator first lists the tables of every schema it may use; a schema dropped while it
 * looks (another test file's, on the database CI's test files share) fails that listing, which is
 * then simply tried again.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    const gone = (error as { code?: unknown }).code === SCHEMA_GONE && (results ?? []).length === 0;
    if (!gone || attempt >= 5) throw error instanceof Error ? error : new Error(String(error));
  }
}
