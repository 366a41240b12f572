import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A young person moves home (docs/decisions.md "A young person moves home"): resident_home_stays
 * records, once per move, which home a young person lived in from when until when. Lists of rows a
 * young person reads because of their home (the rewards catalogue, the staff of their home, the
 * roster) join it (domain/residents/home-stays.ts): the current home's rows count as changed when
 * the stay began, so a checkpoint pull brings them however old they are, and the rows of a home
 * left that existed before the young person left come once more, as blank tombstones.
 *
 * A trigger on residents keeps it, like document_access_changes' (migration 0007): whatever moves a
 * young person (the staff endpoint, an admin tool, a manual fix) closes the stay and opens the next
 * in the same transaction. Leaving care (deleted_at) closes the stay. Existing young people get
 * one open stay from their record's creation, so their lists' order and checkpoints stay valid.
 */
const statements = [
  `create table resident_home_stays (
    id uuid primary key default gen_random_uuid(),
    tenant_id uuid not null references tenants(id) on delete cascade,
    resident_id uuid not null references residents(id) on delete cascade,
    home_id uuid not null references homes(id) on delete cascade,
    started_at timestamptz not null default now(),
    ended_at timestamptz,
    check (ended_at is null or ended_at >= started_at)
  )`,
  `create unique index resident_home_stays_current on resident_home_stays (resident_id) where ended_at is null`,
  `create index resident_home_stays_resident on resident_home_stays (resident_id, home_id)`,
  `insert into resident_home_stays (tenant_id, resident_id, home_id, started_at)
    select tenant_id, id, home_id, created_at from residents where deleted_at is null`,
  `create function resident_home_stays_moved() returns trigger language plpgsql as $$
  declare
    old_home uuid := case when tg_op = 'UPDATE' and old.deleted_at is null then old.home_id end;
    new_home uuid := case when new.deleted_at is null then new.home_id end;
  begin
    if old_home is not distinct from new_home then return null; end if;
    update resident_home_stays set ended_at = now() where resident_id = new.id and ended_at is null;
    if new_home is not null then
      insert into resident_home_stays (tenant_id, resident_id, home_id) values (new.tenant_id, new.id, new_home);
    end if;
    return null;
  end $$`,
  `create trigger resident_home_stays_moved after insert or update of home_id, deleted_at on residents
    for each row execute function resident_home_stays_moved()`,
];

export const residentHomeStays: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop trigger if exists resident_home_stays_moved on residents').execute(db);
    await sql.raw('drop function if exists resident_home_stays_moved()').execute(db);
    await sql.raw('drop table if exists resident_home_stays').execute(db);
  },
};
