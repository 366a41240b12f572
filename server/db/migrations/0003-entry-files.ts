import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Journal and voice, server side: attachments and drawings (entry_files; the bytes live outside the
 * database under DATA_DIR/files/<tenant>/<storage_key>, lib/file-store.ts), the journal's local date
 * and time (entry_date becomes a `date`, entry_time a `time`, both as the young person wrote them,
 * in the home's time zone: Europe/London), comment edits, voice category descriptions and the
 * emoji lookup (tenant-less, like user_types).
 */
export const VOICE_CATEGORY_DESCRIPTIONS: Record<string, string> = {
  'Raise a concern': 'Tell staff about something that worries you or does not feel right.',
  'Make a complaint': 'Tell us about something that is not good enough, so it can be put right.',
  'Message staff': 'Ask a question or send a message to the staff in your home.',
  'Share good news': 'Tell everyone about something that went well.',
};

export const EMOJIS: [string, string][] = [
  ['😊', 'Happy'], ['😄', 'Joyful'], ['😂', 'Laughing'], ['🥰', 'Loved'], ['😎', 'Cool'], ['🤩', 'Excited'],
  ['😌', 'Calm'], ['😴', 'Tired'], ['😐', 'Okay'], ['😕', 'Unsure'], ['😢', 'Sad'], ['😭', 'Crying'],
  ['😠', 'Angry'], ['😤', 'Frustrated'], ['😰', 'Worried'], ['😳', 'Embarrassed'], ['🤒', 'Unwell'], ['🤔', 'Thinking'],
  ['👍', 'Thumbs up'], ['❤️', 'Heart'], ['⭐', 'Star'], ['🎉', 'Party'], ['⚽', 'Football'], ['🥞', 'Pancakes'],
];

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

const statements = [
  `create table entry_files (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    entry_type text not null check (entry_type in ('journal', 'voice', 'comment')),
    entry_id uuid not null,
    role text not null check (role in ('attachment', 'canvas')),
    name text not null,
    mime text not null,
    size integer not null check (size >= 0),
    storage_key text not null,
    created_at timestamptz not null default now(),
    deleted_at timestamptz,
    unique (tenant_id, storage_key)
  )`,
  `create index entry_files_entry on entry_files (entry_type, entry_id, created_at)`,
  `alter table journal_entries add column entry_time time`,
  `update journal_entries set entry_time = (entry_date at time zone 'Europe/London')::time`,
  `alter table journal_entries alter column entry_date drop default`,
  `alter table journal_entries alter column entry_date type date using (entry_date at time zone 'Europe/London')::date`,
  `alter table journal_entries alter column entry_date set default ((now() at time zone 'Europe/London')::date)`,
  `alter table journal_entries alter column entry_time set default ((now() at time zone 'Europe/London')::time)`,
  `alter table journal_entries alter column entry_time set not null`,
  `drop index if exists journal_entries_resident`,
  `create index journal_entries_resident on journal_entries (resident_id, entry_date, entry_time)`,
  `alter table entry_comments add column edited_at timestamptz`,
  `alter table voice_categories add column description text, add column position smallint not null default 0`,
  ...Object.entries(VOICE_CATEGORY_DESCRIPTIONS).map(
    ([name, description], i) =>
      `update voice_categories set description = ${quote(description)}, position = ${i}, updated_at = now() where name = ${quote(name)}`,
  ),
  `create table emojis (
    id uuid primary key default gen_random_uuid(),
    emoji text not null unique,
    name text not null,
    position integer not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    deleted_at timestamptz
  )`,
  `create index emojis_updated on emojis (updated_at, id)`,
  `insert into emojis (emoji, name, position) values ${EMOJIS.map(([e, n], i) => `(${quote(e)}, ${quote(n)}, ${i})`).join(', ')}`,
];

export const entryFiles: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const drops = [
      'drop table if exists emojis',
      'alter table voice_categories drop column if exists description, drop column if exists position',
      'alter table entry_comments drop column if exists edited_at',
      'alter table journal_entries alter column entry_date drop default',
      `alter table journal_entries alter column entry_date type timestamptz using ((entry_date + entry_time) at time zone 'Europe/London')`,
      'alter table journal_entries alter column entry_date set default now()',
      'alter table journal_entries drop column if exists entry_time',
      'drop table if exists entry_files',
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
