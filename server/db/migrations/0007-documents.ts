import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Documents (issue 11):
 * - documents: shared by staff with one young person (resident_id) or a whole home (home_id),
 *   exactly one; kinds file, book, gallery, form (a form points at the form version it is filled
 *   against); `version` counts staff changes, `content_updated_at` is the last one; withdrawn =
 *   deleted_at. Ids may be the client's (create with `id`).
 * - document_chapters and document_pages: a book's structure (ids kept across updates when sent).
 * - document_submissions: a young person's answers to a form document (one live per young person
 *   and document; the id may be the client's).
 * - document_blobs: every stored file of a document: the file of a `file` document, a page's
 *   pictures (page_id), gallery items (position, caption), file answers of a submission
 *   (submission_id). The bytes live under DATA_DIR/files like entry files; sha256 is the ETag.
 * - document_access_changes: for each (document, user) whose right to read the document changed,
 *   when it last changed. The list merges it into the reader's `updated_at`, so a checkpoint pull
 *   brings a document the reader gained and a tombstone for one they lost (domain/documents).
 *   Triggers keep it: a document's audience changing, a young person moving home (or leaving),
 *   staff joining or leaving a home. They mirror documentReadable in server/domain/access.ts.
 */
const entity = `
  tenant_id uuid not null references tenants(id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz`;

const upsert = `on conflict (document_id, user_id) do update set changed_at = excluded.changed_at`;

const statements = [
  `create table documents (
    id uuid primary key default gen_random_uuid(),${entity},
    resident_id uuid references residents(id) on delete cascade,
    home_id uuid references homes(id) on delete cascade,
    kind text not null check (kind in ('file', 'book', 'gallery', 'form')),
    title text not null,
    description text,
    category text not null,
    form_id uuid references forms(id),
    form_version_id uuid references form_versions(id),
    creator_id uuid not null references users(id),
    version integer not null default 1 check (version > 0),
    content_updated_at timestamptz not null default now(),
    seed_key text,
    check ((resident_id is null) <> (home_id is null)),
    check ((kind = 'form') = (form_version_id is not null)),
    unique (tenant_id, seed_key)
  )`,
  `create index documents_resident on documents (resident_id)`,
  `create index documents_home on documents (home_id)`,
  `create index documents_updated on documents (tenant_id, updated_at, id)`,
  `create table document_chapters (
    id uuid primary key,
    tenant_id uuid not null references tenants(id) on delete cascade,
    document_id uuid not null references documents(id) on delete cascade,
    position integer not null,
    title text not null
  )`,
  `create index document_chapters_document on document_chapters (document_id, position)`,
  `create table document_pages (
    id uuid primary key,
    tenant_id uuid not null references tenants(id) on delete cascade,
    document_id uuid not null references documents(id) on delete cascade,
    chapter_id uuid not null references document_chapters(id) on delete cascade,
    position integer not null,
    title text not null,
    html text not null
  )`,
  `create index document_pages_document on document_pages (document_id, chapter_id, position)`,
  `create table document_submissions (
    id uuid primary key,${entity},
    document_id uuid not null references documents(id) on delete cascade,
    resident_id uuid not null references residents(id) on delete cascade,
    creator_id uuid not null references users(id),
    form_version_id uuid not null references form_versions(id),
    answers jsonb not null default '{}'
  )`,
  `create unique index document_submissions_one on document_submissions (document_id, resident_id) where deleted_at is null`,
  `create table document_blobs (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    document_id uuid not null references documents(id) on delete cascade,
    role text not null check (role in ('file', 'page_image', 'gallery_item', 'answer')),
    page_id uuid,
    submission_id uuid references document_submissions(id) on delete cascade,
    position integer not null default 0,
    caption text,
    name text not null,
    mime text not null,
    size integer not null check (size >= 0),
    sha256 text not null,
    storage_key text not null,
    created_at timestamptz not null default now(),
    deleted_at timestamptz,
    unique (tenant_id, storage_key),
    check ((role = 'answer') = (submission_id is not null)),
    check ((role = 'page_image') = (page_id is not null))
  )`,
  `create index document_blobs_document on document_blobs (document_id, role, position)`,
  `create index document_blobs_submission on document_blobs (submission_id)`,
  `create table document_access_changes (
    tenant_id uuid not null references tenants(id) on delete cascade,
    document_id uuid not null references documents(id) on delete cascade,
    user_id uuid not null references users(id) on delete cascade,
    changed_at timestamptz not null default now(),
    primary key (document_id, user_id)
  )`,
  `create index document_access_changes_user on document_access_changes (user_id, changed_at)`,
  // Who may read a document with this audience (documentReadable, server/domain/access.ts).
  `create function document_readers(p_resident uuid, p_home uuid) returns setof uuid language sql stable as $$
    select r.user_id from residents r
      where r.deleted_at is null and (r.id = p_resident or r.home_id = p_home)
    union
    select hs.user_id from home_staff hs
      where hs.deleted_at is null and (hs.home_id = p_home
        or hs.home_id = (select r.home_id from residents r where r.id = p_resident and r.deleted_at is null))
  $$`,
  `create function documents_audience_changed() returns trigger language plpgsql as $$
  begin
    if (old.resident_id, old.home_id) is not distinct from (new.resident_id, new.home_id) then return null; end if;
    insert into document_access_changes (tenant_id, document_id, user_id, changed_at)
      select new.tenant_id, new.id, u.id, now()
      from (select document_readers(old.resident_id, old.home_id) as id
            union select document_readers(new.resident_id, new.home_id)) u
      ${upsert};
    return null;
  end $$`,
  `create trigger documents_audience_changed after update of resident_id, home_id on documents
    for each row execute function documents_audience_changed()`,
  `create function documents_resident_moved() returns trigger language plpgsql as $$
  declare
    old_home uuid := case when tg_op = 'UPDATE' and old.deleted_at is null then old.home_id end;
    new_home uuid := case when new.deleted_at is null then new.home_id end;
    presence_changed boolean := tg_op = 'INSERT' or (old.deleted_at is null) <> (new.deleted_at is null);
  begin
    if old_home is not distinct from new_home and not presence_changed then return null; end if;
    -- The young person: the home documents of the home left and of the home joined (their own
    -- documents too when they arrive or leave).
    insert into document_access_changes (tenant_id, document_id, user_id, changed_at)
      select d.tenant_id, d.id, new.user_id, now() from documents d
      where d.home_id in (old_home, new_home) or (presence_changed and d.resident_id = new.id)
      ${upsert};
    -- Staff of both homes: the young person's own documents.
    insert into document_access_changes (tenant_id, document_id, user_id, changed_at)
      select distinct d.tenant_id, d.id, hs.user_id, now() from documents d
      join home_staff hs on hs.home_id in (old_home, new_home) and hs.deleted_at is null
      where d.resident_id = new.id
      ${upsert};
    return null;
  end $$`,
  `create trigger documents_resident_moved after insert or update of home_id, deleted_at on residents
    for each row execute function documents_resident_moved()`,
  `create function documents_staff_changed() returns trigger language plpgsql as $$
  declare
    old_home uuid := case when tg_op in ('UPDATE', 'DELETE') and old.deleted_at is null then old.home_id end;
    new_home uuid := case when tg_op in ('INSERT', 'UPDATE') and new.deleted_at is null then new.home_id end;
    member uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
    member_tenant uuid := case when tg_op = 'DELETE' then old.tenant_id else new.tenant_id end;
  begin
    if old_home is not distinct from new_home then return null; end if;
    -- Everything of the home left and of the home joined: its home documents and its young people's.
    insert into document_access_changes (tenant_id, document_id, user_id, changed_at)
      select d.tenant_id, d.id, member, now() from documents d
      where d.tenant_id = member_tenant and (d.home_id in (old_home, new_home)
        or d.resident_id in (select r.id from residents r where r.home_id in (old_home, new_home) and r.deleted_at is null))
      ${upsert};
    return null;
  end $$`,
  `create trigger documents_staff_changed after insert or update of home_id, deleted_at or delete on home_staff
    for each row execute function documents_staff_changed()`,
];

export const documents: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    const drops = [
      'drop trigger if exists documents_staff_changed on home_staff',
      'drop trigger if exists documents_resident_moved on residents',
      'drop function if exists documents_staff_changed()',
      'drop function if exists documents_resident_moved()',
      'drop table if exists document_access_changes',
      'drop table if exists document_blobs',
      'drop table if exists document_submissions',
      'drop table if exists document_pages',
      'drop table if exists document_chapters',
      'drop table if exists documents',
      'drop function if exists documents_audience_changed()',
      'drop function if exists document_readers(uuid, uuid)',
    ];
    for (const statement of drops) await sql.raw(statement).execute(db);
  },
};
