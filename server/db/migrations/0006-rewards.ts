import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Rewards (issue 10):
 * - rewards: a catalogue per home (name, description, points cost > 0, active, position); the image
 *   is an entry_files row of entry_type 'reward' (one live at a time). Withdrawing is a soft delete;
 *   `active` false pauses a reward (staff can switch it on again). Ids may be the client's.
 * - reward_exchanges: a young person's request to swap points for a reward. The cost at the time
 *   is kept (`points`), so a later price change never rewrites history. pending → approved | denied,
 *   once (decided_by/at set together with the decision). The ledger (0005) carries the points:
 *   `reward_exchange` -points at once (source_id = exchange id) and, on deny, `reward_refund`
 *   +points; unique (reason, source_id) makes each happen at most once.
 */
const statements = [
  `create table rewards (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    home_id uuid not null references homes(id) on delete cascade,
    creator_id uuid references users(id),
    name text not null,
    description text,
    points integer not null check (points > 0),
    active boolean not null default true,
    position integer not null default 0,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz
  )`,
  `create index rewards_home on rewards (home_id, position, name)`,
  `create index rewards_updated on rewards (tenant_id, updated_at, id)`,
  `create table reward_exchanges (
    id uuid primary key,
    tenant_id uuid not null references tenants(id) on delete cascade,
    resident_id uuid not null references residents(id) on delete cascade,
    reward_id uuid not null references rewards(id),
    creator_id uuid not null references users(id),
    points integer not null check (points > 0),
    status text not null default 'pending' check (status in ('pending', 'approved', 'denied')),
    decided_by uuid references users(id),
    decided_at timestamptz,
    note text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    check ((status = 'pending') = (decided_at is null))
  )`,
  `create index reward_exchanges_resident on reward_exchanges (resident_id, created_at, id)`,
  `create index reward_exchanges_updated on reward_exchanges (tenant_id, updated_at, id)`,
  `create index reward_exchanges_pending on reward_exchanges (tenant_id, created_at) where status = 'pending'`,
  `alter table entry_files drop constraint if exists entry_files_entry_type_check`,
  `alter table entry_files add constraint entry_files_entry_type_check check (entry_type in ('journal', 'voice', 'comment', 'task_comment', 'task_log', 'reward'))`,
];

export const rewards: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const drops = [
      `delete from points_ledger where reason in ('reward_exchange', 'reward_refund')`,
      `delete from entry_files where entry_type = 'reward'`,
      'alter table entry_files drop constraint if exists entry_files_entry_type_check',
      `alter table entry_files add constraint entry_files_entry_type_check check (entry_type in ('journal', 'voice', 'comment', 'task_comment', 'task_log'))`,
      'drop table if exists reward_exchanges',
      'drop table if exists rewards',
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
