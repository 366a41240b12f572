import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 13 (scale out): what several server processes on one PostgreSQL must share.
 *
 * - stored_files, stored_file_chunks: uploaded files' bytes when the server runs on PostgreSQL
 *   (lib/database-file-store.ts), so every process on every machine reads what any of them
 *   stored. A file is a head row (its size and chunk size) and its bytes in chunks of at most
 *   256 KiB, all written in one transaction: a reader finds the whole file or none of it, and a
 *   range read fetches only the chunks it covers. The chunks are stored uncompressed (`external`):
 *   uploads are mostly compressed already (JPEG, PDF, WebM), and a slice of an uncompressed
 *   value is read without the rest. The embedded database keeps files on disk (lib/file-store.ts);
 *   these tables are created there too and stay empty.
 * - request_counters: the coarse per-IP ceiling on /api/auth/* (plugins/rate-limit.ts), a fixed
 *   window per key, shared by every process instead of one count per process.
 */
const statements = [
  `create table stored_files (
    tenant_id uuid not null references tenants(id) on delete cascade,
    storage_key text not null check (storage_key ~ '^[0-9a-f]{32}$'),
    size integer not null check (size >= 0),
    chunk_size integer not null check (chunk_size > 0),
    created_at timestamptz not null default now(),
    primary key (tenant_id, storage_key)
  )`,
  `create table stored_file_chunks (
    tenant_id uuid not null,
    storage_key text not null,
    seq integer not null check (seq >= 0),
    bytes bytea not null,
    primary key (tenant_id, storage_key, seq),
    foreign key (tenant_id, storage_key) references stored_files (tenant_id, storage_key) on delete cascade
  )`,
  `alter table stored_file_chunks alter column bytes set storage external`,
  `create table request_counters (
    key text primary key,
    count integer not null,
    window_ends_at timestamptz not null
  )`,
  `create index request_counters_window on request_counters (window_ends_at)`,
];

export const scaleOut: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['request_counters', 'stored_file_chunks', 'stored_files']) await sql.raw(`drop table if exists ${table}`).execute(db);
  },
};
