import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 12 (edit conflicts): journal and voice entries remember when their content last changed
 * and which device changed it, so an update made from an older copy is refused (412) instead of
 * silently replacing a change made on another device (domain/entries/conflicts.ts).
 * - content_updated_at: when the young person's words, drawing, reaction, files, sharing, date or
 *   category last changed (create or update). `updated_at` also moves for comments, so it cannot
 *   tell a staff reply from another device's edit.
 * - content_writer: the device that made that change (an opaque id the app derives from its data
 *   key); null for writes that did not say.
 * Existing rows take their updated_at: a device that has seen the row has seen at least that.
 */
const statements = (table: string) => [
  `alter table ${table} add column content_updated_at timestamptz`,
  `update ${table} set content_updated_at = updated_at`,
  `alter table ${table} alter column content_updated_at set not null`,
  `alter table ${table} alter column content_updated_at set default now()`,
  `alter table ${table} add column content_writer text`,
];

export const entryVersions: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['journal_entries', 'voice_entries']) {
      for (const statement of statements(table)) await sql.raw(statement).execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['journal_entries', 'voice_entries']) {
      await sql.raw(`alter table ${table} drop column if exists content_writer, drop column if exists content_updated_at`).execute(db);
    }
  },
};
