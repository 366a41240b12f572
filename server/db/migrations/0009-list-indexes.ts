import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 13 (server throughput): indexes that list endpoints in checkpoint mode were missing, found by
 * tests/server/list-indexes.test.ts (EXPLAIN of each list's checkpoint statement with sequential
 * scans and sorts priced out).
 * - document_submissions: a form's submissions (GET /v1/documents/{id}/submissions) were read by a
 *   sequential scan and sorted; the only index was partial (live rows), and the checkpoint pull asks
 *   for tombstones too. Now one document's rows come in (updated_at, id) order from the index.
 * - entry_files: a journal or voice page reads each entry's files in the same statement, in (created_at,
 *   id) order; the index stopped at created_at, so every entry's files were sorted again.
 */
const statements = [
  `create index document_submissions_updated on document_submissions (document_id, updated_at, id)`,
  `drop index if exists entry_files_entry`,
  `create index entry_files_entry on entry_files (entry_type, entry_id, created_at, id)`,
];

export const listIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop index if exists document_submissions_updated').execute(db);
    await sql.raw('drop index if exists entry_files_entry').execute(db);
    await sql.raw('create index entry_files_entry on entry_files (entry_type, entry_id, created_at)').execute(db);
  },
};
