import { sql, type Kysely, type Migration } from 'kysely';

/**
 * What the offline data layer reads and writes: resident details and app settings, journal and
 * voice entries with their comment threads, the resident feedback summary, push subscriptions and
 * stored answers for idempotent writes. Every replicated table gets an index on
 * (tenant_id, updated_at, id), the order checkpoint pagination walks; updated_at is set by the
 * application on every write (`updated_at = now()`), as in 0001.
 */
const entity = `
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz`;

export const VOICE_CATEGORIES = ['Raise a concern', 'Make a complaint', 'Message staff', 'Share good news'] as const;

const entryColumns = `
  resident_id uuid not null references residents(id) on delete cascade,
  creator_id uuid not null references users(id),
  description text,
  canvas text,
  reaction text,
  entry_date timestamptz not null default now(),
  shared_with uuid[] not null default '{}',
  shared_with_management boolean not null default false,
  locked_at timestamptz`;

const statements = [
  `alter table residents
    add column date_of_birth date,
    add column key_worker_id uuid references users(id) on delete set null,
    add column journal_colour text not null default 'sunshine',
    add column journal_paper text not null default 'lined',
    add column theme text not null default 'fun'`,
  `create index residents_updated on residents (tenant_id, updated_at, id)`,
  `alter table users add column job_title text`,
  `create index home_staff_updated on home_staff (tenant_id, updated_at, id)`,
  `create index rota_shifts_updated on rota_shifts (tenant_id, updated_at, id)`,
  `create index event_types_updated on event_types (tenant_id, updated_at, id)`,
  `alter table events add column location text`,
  `create index events_updated on events (tenant_id, updated_at, id)`,
  `create table resident_settings (${entity},
    resident_id uuid not null references residents(id) on delete cascade,
    name text not null,
    value text,
    unique (resident_id, name)
  )`,
  `create index resident_settings_updated on resident_settings (tenant_id, updated_at, id)`,
  `insert into resident_settings (tenant_id, resident_id, name, value)
    select tenant_id, id, 'explicit_image_sensitivity', 'medium' from residents`,
  `create table journal_entries (${entity}, ${entryColumns})`,
  `create index journal_entries_resident on journal_entries (resident_id, entry_date)`,
  `create index journal_entries_updated on journal_entries (tenant_id, updated_at, id)`,
  `create table voice_categories (${entity}, name text not null, unique (tenant_id, name))`,
  `create index voice_categories_updated on voice_categories (tenant_id, updated_at, id)`,
  `insert into voice_categories (tenant_id, name)
    select t.id, c.name from tenants t cross join (values ${VOICE_CATEGORIES.map((c) => `('${c}')`).join(', ')}) as c(name)`,
  `create table voice_entries (${entity}, ${entryColumns},
    category_id uuid not null references voice_categories(id)
  )`,
  `create index voice_entries_resident on voice_entries (resident_id, entry_date)`,
  `create index voice_entries_updated on voice_entries (tenant_id, updated_at, id)`,
  // Ids are UUIDv7 made by the server (lib/uuidv7.ts): they sort by creation time.
  `create table entry_comments (
    id uuid primary key,
    tenant_id uuid not null references tenants(id) on delete cascade,
    entry_type text not null check (entry_type in ('journal', 'voice')),
    entry_id uuid not null,
    creator_id uuid not null references users(id),
    comment text,
    reaction text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz
  )`,
  `create index entry_comments_entry on entry_comments (entry_type, entry_id, id)`,
  `create index entry_comments_updated on entry_comments (tenant_id, updated_at, id)`,
  // One row per entry thread that has staff comments, kept in step with every comment insert.
  `create table resident_feedback (${entity},
    type text not null check (type in ('journal', 'voice')),
    resident_id uuid not null references residents(id) on delete cascade,
    entry_id uuid not null,
    comment_id uuid not null references entry_comments(id),
    count integer not null default 0,
    awaiting_resident_response boolean not null default false,
    locked_at timestamptz,
    reaction text,
    category_id uuid references voice_categories(id),
    unique (tenant_id, type, entry_id)
  )`,
  `create index resident_feedback_resident on resident_feedback (resident_id, comment_id)`,
  `create index resident_feedback_updated on resident_feedback (tenant_id, updated_at, id)`,
  `create table push_subscriptions (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    endpoint text not null unique,
    p256dh text not null,
    auth text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index push_subscriptions_user on push_subscriptions (user_id)`,
  // status null: the first request with this key is still running.
  `create table idempotency_keys (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    key text not null,
    method text not null,
    path text not null,
    request_hash text not null,
    status integer,
    body jsonb,
    created_at timestamptz not null default now(),
    unique (tenant_id, user_id, key)
  )`,
  `create index idempotency_keys_created on idempotency_keys (created_at)`,
];

export const offlineData: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const tables = [
      'idempotency_keys', 'push_subscriptions', 'resident_feedback', 'entry_comments', 'voice_entries', 'voice_categories',
      'journal_entries', 'resident_settings',
    ];
    for (const table of tables) await sql.raw(`drop table if exists ${table} cascade`).execute(db);
    const drops = [
      'drop index if exists events_updated', 'alter table events drop column if exists location',
      'drop index if exists event_types_updated', 'drop index if exists rota_shifts_updated', 'drop index if exists home_staff_updated',
      'alter table users drop column if exists job_title', 'drop index if exists residents_updated',
      `alter table residents drop column if exists date_of_birth, drop column if exists key_worker_id,
        drop column if exists journal_colour, drop column if exists journal_paper, drop column if exists theme`,
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
