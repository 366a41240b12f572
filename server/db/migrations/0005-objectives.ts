import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Objectives (issue 9):
 * - forms (a template; its name is the objective's category) and form_versions (the ordered field
 *   definitions, contract forms.ts; a new definition is a new version, old logs keep theirs);
 * - tasks (one objective for a young person on a date, from a form) and task_logs (the record of
 *   how it went: status current/completed, answers against one form version);
 * - task_log_comments (ids may be the client's: threads order by created_at, id); at most one
 *   live review per log (partial unique index); their files are entry_files rows of entry_type
 *   'task_comment', file answers of the log are entry_files of entry_type 'task_log';
 * - points_ledger: append-only; the balance is the sum, kept in residents.reward_points in the same
 *   transaction as every ledger insert; unique (reason, source_id) makes an award happen once;
 *   reward_points may never go below zero (check). Existing balances become an opening entry.
 */
const entity = `
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz`;

const statements = [
  `create table forms (${entity},
    name text not null,
    description text,
    unique (tenant_id, name)
  )`,
  `create index forms_updated on forms (tenant_id, updated_at, id)`,
  `create table form_versions (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    form_id uuid not null references forms(id) on delete cascade,
    version integer not null check (version > 0),
    fields jsonb not null,
    created_at timestamptz not null default now(),
    unique (form_id, version)
  )`,
  `create table tasks (${entity},
    resident_id uuid not null references residents(id) on delete cascade,
    form_id uuid not null references forms(id),
    creator_id uuid not null references users(id),
    title text not null,
    description text,
    task_date date not null
  )`,
  `create index tasks_resident on tasks (resident_id, task_date)`,
  `create index tasks_updated on tasks (tenant_id, updated_at, id)`,
  `create table task_logs (${entity},
    task_id uuid not null references tasks(id) on delete cascade,
    form_version_id uuid not null references form_versions(id),
    status text not null default 'current' check (status in ('current', 'completed')),
    answers jsonb not null default '{}',
    completed_at timestamptz,
    completed_by uuid references users(id)
  )`,
  `create index task_logs_task on task_logs (task_id, created_at)`,
  `create index task_logs_updated on task_logs (tenant_id, updated_at, id)`,
  `create table task_log_comments (
    id uuid primary key,
    tenant_id uuid not null references tenants(id) on delete cascade,
    task_log_id uuid not null references task_logs(id) on delete cascade,
    creator_id uuid not null references users(id),
    comment text not null,
    is_review boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz,
    edited_at timestamptz
  )`,
  `create index task_log_comments_log on task_log_comments (task_log_id, created_at, id)`,
  `create unique index task_log_comments_one_review on task_log_comments (task_log_id) where is_review and deleted_at is null`,
  `alter table entry_files drop constraint if exists entry_files_entry_type_check`,
  `alter table entry_files add constraint entry_files_entry_type_check check (entry_type in ('journal', 'voice', 'comment', 'task_comment', 'task_log'))`,
  `create table points_ledger (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    resident_id uuid not null references residents(id) on delete cascade,
    delta integer not null check (delta <> 0),
    reason text not null,
    source_id uuid,
    created_at timestamptz not null default now(),
    unique (reason, source_id)
  )`,
  `create index points_ledger_resident on points_ledger (resident_id, created_at, id)`,
  `update residents set reward_points = 0 where reward_points < 0`,
  `alter table residents add constraint residents_reward_points_not_negative check (reward_points >= 0)`,
  `insert into points_ledger (tenant_id, resident_id, delta, reason, source_id)
    select tenant_id, id, reward_points, 'opening_balance', id from residents where reward_points > 0`,
];

export const objectives: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const drops = [
      'drop table if exists points_ledger',
      'alter table residents drop constraint if exists residents_reward_points_not_negative',
      `delete from entry_files where entry_type in ('task_comment', 'task_log')`,
      'alter table entry_files drop constraint if exists entry_files_entry_type_check',
      `alter table entry_files add constraint entry_files_entry_type_check check (entry_type in ('journal', 'voice', 'comment'))`,
      'drop table if exists task_log_comments',
      'drop table if exists task_logs',
      'drop table if exists tasks',
      'drop table if exists form_versions',
      'drop table if exists forms',
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
