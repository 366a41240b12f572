import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 12 (staff access audit): every request a member of staff makes to the data API, recorded
 * after it is answered (plugins/staff-audit.ts): who (user_id), what (action, method, the route's
 * pattern, its path parameters and query in `target`, the young person when the route names one),
 * when (at) and how it ended (status). Young people's own requests are never recorded. Rows are
 * never changed; a manager reads those of the staff of their homes (domain/audit/staff-access.ts).
 */
const statements = [
  `create table staff_access_log (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    resident_id uuid references residents(id) on delete set null,
    action text not null check (action in ('read', 'write')),
    method text not null,
    route text not null,
    target jsonb not null default '{}',
    status smallint not null,
    at timestamptz not null default clock_timestamp()
  )`,
  `create index staff_access_log_user on staff_access_log (tenant_id, user_id, at, id)`,
  `create index staff_access_log_at on staff_access_log (tenant_id, at, id)`,
];

export const staffAccessLog: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop table if exists staff_access_log').execute(db);
  },
};
