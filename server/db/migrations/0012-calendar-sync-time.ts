import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Issue 13 (initial sync): a calendar row changes when its instance or its event does, so its
 * replication time is the newer of the two. Worked out in the query, no index could hold that order:
 * every page of a young person's calendar joined and sorted all of their instances to return 500
 * (76 ms a page on PGlite at 5,000 instances, as much for the last page of 25 as for the first). The
 * time is now kept on the instance, by the database itself, so whatever writes an instance or an
 * event (a staff tool, the seed, a test) keeps it right, in the same transaction:
 * - before an instance is written with a new `updated_at` or event: the newer of its own and its event's;
 * - after an event's `updated_at` moves: every instance of it takes the newer of the two again.
 * The value is exactly the old expression's, so checkpoints already on devices stay valid, and the
 * sync horizon (lib/sync-horizon.ts) still applies: both times are the writing transaction's `now()`.
 */
const statements = [
  `alter table event_instances add column sync_updated_at timestamptz`,
  `update event_instances ei set sync_updated_at = greatest(ei.updated_at, e.updated_at) from events e where e.id = ei.event_id`,
  `alter table event_instances alter column sync_updated_at set not null`,
  `create function event_instances_sync_time() returns trigger language plpgsql as $$
  begin
    new.sync_updated_at := greatest(new.updated_at, (select e.updated_at from events e where e.id = new.event_id));
    return new;
  end $$`,
  `create trigger event_instances_sync_time before insert or update of updated_at, event_id on event_instances
    for each row execute function event_instances_sync_time()`,
  `create function events_sync_time() returns trigger language plpgsql as $$
  begin
    update event_instances set sync_updated_at = greatest(updated_at, new.updated_at) where event_id = new.id;
    return null;
  end $$`,
  `create trigger events_sync_time after update of updated_at on events
    for each row when (old.updated_at is distinct from new.updated_at) execute function events_sync_time()`,
  `create index event_instances_sync on event_instances (tenant_id, resident_id, sync_updated_at, id)`,
  // The event's trigger finds its instances by this (there was no index on event_id).
  `create index event_instances_event on event_instances (event_id)`,
];

export const calendarSyncTime: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw('drop trigger if exists events_sync_time on events').execute(db);
    await sql.raw('drop trigger if exists event_instances_sync_time on event_instances').execute(db);
    await sql.raw('drop function if exists events_sync_time()').execute(db);
    await sql.raw('drop function if exists event_instances_sync_time()').execute(db);
    await sql.raw('drop index if exists event_instances_event').execute(db);
    await sql.raw('drop index if exists event_instances_sync').execute(db);
    await sql.raw('alter table event_instances drop column if exists sync_updated_at').execute(db);
  },
};
