import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Retiring stored files (`entry_files`) that an entry, a comment, a reward or an objective no longer
 * names: one rule for every write that replaces or drops files. The row is marked deleted inside the
 * write's transaction, so from its commit no read serves it (every file read asks for a live row:
 * a 404 as for a file that never existed); the bytes go only after the commit, since a rollback
 * would otherwise leave a live row without its bytes.
 */
export interface RetiredFile {
  id: string;
  storage_key: string;
}

/** Inside the write's transaction: the files are deleted for every reader from its commit. */
export async function retireFiles(tx: Transaction<Database>, files: readonly RetiredFile[]): Promise<void> {
  if (files.length > 0) await tx.updateTable('entry_files').set({ deleted_at: sql`now()` }).where('id', 'in', files.map((f) => f.id)).execute();
}

/** After the commit: the retired files' bytes leave the store. */
export async function removeRetiredBytes(app: FastifyInstance, tenantId: string, files: readonly RetiredFile[]): Promise<void> {
  for (const f of files) await app.fileStore.remove(tenantId, f.storage_key);
}
