import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The first schema. Every entity row has id, tenant_id, created_at, updated_at and deleted_at:
 * replication (later issues) pulls by updated_at and soft deletes travel as rows with deleted_at.
 * Plain SQL so it reads the same on PGlite and PostgreSQL.
 */
const entity = `
  id uuid primary key default gen_random_uuid(),
  tenant_id uuid not null references tenants(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz`;

const statements = [
  `create table tenants (
    id uuid primary key default gen_random_uuid(),
    slug text not null unique,
    name text not null,
    mfa_policy text not null default 'optional' check (mfa_policy in ('optional', 'required')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz
  )`,
  `create table user_types (id smallint primary key, system_name text not null unique, name text not null)`,
  `create table themes (
    id smallint primary key, system_name text not null unique, name text not null, theme_type text not null
  )`,
  `create table homes (${entity}, name text not null, unique (tenant_id, name))`,
  `create table users (${entity},
    username text not null,
    email text,
    password_hash text not null,
    first_name text not null,
    last_name text not null,
    user_type_id smallint not null references user_types(id),
    theme_id smallint references themes(id)
  )`,
  `create unique index users_tenant_username on users (tenant_id, lower(username)) where deleted_at is null`,
  `create index users_updated on users (tenant_id, updated_at, id)`,
  `create table user_photos (${entity},
    user_id uuid not null unique references users(id) on delete cascade,
    mime text not null,
    bytes bytea not null
  )`,
  `create table residents (${entity},
    user_id uuid not null unique references users(id) on delete cascade,
    home_id uuid not null references homes(id),
    preferred_name text,
    reward_points integer not null default 0,
    journal_enabled smallint not null default 0 check (journal_enabled in (0, 1)),
    voice_enabled smallint not null default 0 check (voice_enabled in (0, 1)),
    rewards_enabled smallint not null default 0 check (rewards_enabled in (0, 1))
  )`,
  `create index residents_home on residents (home_id)`,
  `create table home_staff (${entity},
    home_id uuid not null references homes(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    unique (home_id, user_id)
  )`,
  `create index home_staff_user on home_staff (user_id)`,
  `create table mfa_methods (${entity},
    user_id uuid not null references users(id) on delete cascade,
    method text not null check (method in ('authenticator', 'email')),
    secret_encrypted text,
    email text,
    confirmed_at timestamptz,
    last_used_step integer,
    pending_code_hash text,
    pending_code_expires_at timestamptz,
    unique (user_id, method)
  )`,
  `create table recovery_codes (${entity},
    user_id uuid not null references users(id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    unique (user_id, code_hash)
  )`,
  `create table sessions (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid references tenants(id) on delete cascade,
    user_id uuid references users(id) on delete cascade,
    token_hash text not null unique,
    state text not null check (state in ('guest', 'mfa_setup', 'full')),
    ip text,
    user_agent text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    idle_expires_at timestamptz not null,
    absolute_expires_at timestamptz not null
  )`,
  `create index sessions_user on sessions (user_id)`,
  `create index sessions_idle on sessions (idle_expires_at)`,
  `create table mfa_challenges (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    session_id uuid not null references sessions(id) on delete cascade,
    token_hash text not null unique,
    attempts integer not null default 0,
    email_code_hash text,
    email_code_expires_at timestamptz,
    email_sends integer not null default 0,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`,
  `create table auth_throttles (
    key text primary key,
    failures integer not null default 0,
    window_started_at timestamptz not null default now(),
    locked_until timestamptz,
    updated_at timestamptz not null default now()
  )`,
  `create table event_types (${entity}, name text not null, unique (tenant_id, name))`,
  `create table events (${entity},
    title text not null,
    description text,
    event_type_id uuid references event_types(id),
    seed_key text,
    unique (tenant_id, seed_key)
  )`,
  `create table event_instances (${entity},
    event_id uuid not null references events(id) on delete cascade,
    resident_id uuid not null references residents(id) on delete cascade,
    start_date date not null,
    start_time time,
    end_date date not null,
    end_time time
  )`,
  `create index event_instances_resident on event_instances (resident_id, start_date)`,
  `create index event_instances_updated on event_instances (tenant_id, updated_at, id)`,
  `create table rota_shifts (${entity},
    home_id uuid not null references homes(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    shift_date date not null,
    starts_at time not null,
    ends_at time not null,
    unique (tenant_id, user_id, shift_date)
  )`,
  `create index rota_shifts_home on rota_shifts (home_id, shift_date)`,
  `insert into user_types (id, system_name, name) values
    (1, 'young_person_user', 'Young person'), (2, 'employee', 'Employee'), (3, 'manager', 'Manager')`,
  `insert into themes (id, system_name, name, theme_type) values
    (1, 'fun_style', 'Fun', 'kids_app'), (2, 'gaming_style', 'Gaming', 'kids_app')`,
];

export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const tables = [
      'rota_shifts', 'event_instances', 'events', 'event_types', 'auth_throttles', 'mfa_challenges', 'sessions',
      'recovery_codes', 'mfa_methods', 'home_staff', 'residents', 'user_photos', 'users', 'homes', 'themes',
      'user_types', 'tenants',
    ];
    for (const table of tables) await sql.raw(`drop table if exists ${table} cascade`).execute(db);
  },
};
