import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 4 follow-up (server):
 * - entry_access_revocations: who lost read access to an entry, and when. A staff member's replica
 *   keeps an entry it can no longer read forever unless a pull tells it to drop it; the journal and
 *   voice lists turn these rows into content-free tombstones (domain/entries/revocations.ts). One
 *   row per (entry, user): revoking again moves revoked_at, giving access back deletes the row.
 * - Comments are ordered by (created_at, id): ids may now be made by clients (random UUIDv4), so
 *   they no longer sort by time. The thread index follows that order.
 */
const statements = [
  `create table entry_access_revocations (
    tenant_id uuid not null references tenants(id) on delete cascade,
    entry_type text not null check (entry_type in ('journal', 'voice')),
    entry_id uuid not null,
    user_id uuid not null references users(id) on delete cascade,
    revoked_at timestamptz not null default now(),
    primary key (entry_type, entry_id, user_id)
  )`,
  `create index entry_access_revocations_user on entry_access_revocations (tenant_id, user_id, entry_type, revoked_at, entry_id)`,
  `drop index if exists entry_comments_entry`,
  `create index entry_comments_entry on entry_comments (entry_type, entry_id, created_at, id)`,
];

export const accessRevocations: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const drops = [
      'drop index if exists entry_comments_entry',
      'create index entry_comments_entry on entry_comments (entry_type, entry_id, id)',
      'drop table if exists entry_access_revocations',
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
