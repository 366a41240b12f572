import { Migrator, type Kysely } from 'kysely';
import type { Database } from './schema';
import { migrationProvider } from './migrations/index';

/**
 * Brings the schema up to date; throws (and so stops the start) when a migration fails. With a
 * schema, Kysely's bookkeeping tables go there too (it would otherwise find another schema's).
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
