import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '@/contract/users';
import { closeReplica, getReplication, openReplicaForAccount, wipeReplica, type ReplicaOptions } from '@/data/replica/lifecycle';
import { applyLocalChange, setSyncState } from '@/data/replica/local-writes';
import { replicaStore, type OpenReplica } from '@/data/replica/replica-store';
import { isFirstPullPending, replicationStatus } from '@/data/replication/sync-status';
import { startReplication, type ReplicationHandle } from '@/data/replication/controller';
import type { CalendarDoc } from '@/data/replica/types';
import { dumpIndexedDb, fakeIdb, listDatabases, randomKey, uniqueName } from './fixtures';
import { eventually, startSyncServer, type SyncTestServer } from './support/sync-server';

const CANARY = 'CANARY-what-a-child-wrote-91c2';

let sync: SyncTestServer;
let account: Account;
const handles: ReplicationHandle[] = [];

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

beforeAll(async () => {
  sync = await startSyncServer();
  account = await sync.signIn('jamie');
});
afterAll(async () => {
  await sync?.close();
});
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop()));
  await closeReplica();
});

/** A replica of its own for each test (the site is part of the replica's name). */
async function openFresh(): Promise<OpenReplica> {
  return openReplicaForAccount(account, uniqueName('site'), replica);
}

function replicate(open: OpenReplica, perPage = 5): ReplicationHandle {
  const handle = startReplication(open, { liveTriggers: false, perPage, retryTime: 200 });
  handles.push(handle);
  return handle;
}

const residentId = () => account.user.resident!.id;
const calendarRequests = () => sync.requests.filter((r) => r.url.pathname.endsWith('/instances'));

async function serverCalendarIds(): Promise<string[]> {
  const rows = await sync.server.db
    .selectFrom('event_instances')
    .innerJoin('events', 'events.id', 'event_instances.event_id')
    .select('event_instances.id')
    .where('event_instances.resident_id', '=', residentId())
    .where('event_instances.deleted_at', 'is', null)
    .where('events.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id).sort();
}

async function localCalendarIds(open: OpenReplica): Promise<string[]> {
  return (await open.db.calendar.find().exec()).map((d) => d.id).sort();
}

describe('pull replication against the real server', () => {
  it('fills every collection on first pull, and catches the calendar up across several pages', async () => {
    const open = await openFresh();
    const before = calendarRequests().length;
    const handle = replicate(open, 5);
    await handle.awaitInitial();

    const expected = await serverCalendarIds();
    expect(expected.length).toBeGreaterThan(10);
    expect(await localCalendarIds(open)).toEqual(expected);
    // ceil(n / 5) pages at least, each asking from the previous checkpoint
    const made = calendarRequests().slice(before);
    expect(made.length).toBeGreaterThanOrEqual(Math.ceil(expected.length / 5));
    expect(made.slice(1).every((r) => r.url.searchParams.get('checkpoint[updated_at]'))).toBe(true);
    expect(made.every((r) => r.url.searchParams.get('with_trashed') === '1' && r.url.searchParams.get('per_page') === '5')).toBe(true);

    const details = await open.db.resident.findOne(residentId()).exec();
    expect(details?.first_name).toBe('Jamie');
    expect(details?.journal_enabled).toBe(1);
    expect((await open.db.staff.find().exec()).length).toBeGreaterThan(0);
    expect((await open.db.lookups.find({ selector: { kind: 'event_type' } }).exec()).length).toBeGreaterThan(0);
    const rota = await open.db.rota.find().exec();
    expect(rota.length).toBeGreaterThan(0);
    expect(new Set(rota.map((r) => r.shift_date)).size).toBe(1);
  });

  it('a soft delete on the server arrives as a tombstone and leaves every query', async () => {
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    const [victim] = await serverCalendarIds();
    expect(await open.db.calendar.findOne(victim!).exec()).not.toBeNull();

    await sync.server.db
      .updateTable('event_instances')
      .set({ deleted_at: sql`clock_timestamp()`, updated_at: sql`clock_timestamp()` })
      .where('id', '=', victim!)
      .execute();
    handle.reSync(['calendar']);
    await eventually(async () => (await open.db.calendar.findOne(victim!).exec()) === null, 10_000, 'the tombstone');
    expect(await localCalendarIds(open)).toEqual(await serverCalendarIds());
  });

  it('stopping and starting again resumes from the stored checkpoint', async () => {
    const open = await openFresh();
    const first = replicate(open, 5);
    await first.awaitInitial();
    await first.stop();
    const firstRunCount = (await localCalendarIds(open)).length;

    const [touched] = await serverCalendarIds();
    await sync.server.db.updateTable('event_instances').set({ start_time: '06:45', updated_at: sql`clock_timestamp()` }).where('id', '=', touched!).execute();

    const before = calendarRequests().length;
    const second = replicate(open, 5);
    await second.awaitInitial();
    await eventually(async () => (await open.db.calendar.findOne(touched!).exec())?.start_time === '06:45', 10_000, 'the changed row');
    const made = calendarRequests().slice(before);
    // one page, from the checkpoint, with only the changed row in it
    expect(made).toHaveLength(1);
    expect(made[0]!.rows).toBe(1);
    expect(made[0]!.url.searchParams.get('checkpoint[updated_at]')).toBeTruthy();
    expect((await localCalendarIds(open)).length).toBe(firstRunCount);
  });

  it('a pending local document is not overwritten by a pull; the server copy lands once synced', async () => {
    const open = await openFresh();
    const first = replicate(open);
    await first.awaitInitial();
    const [id] = await serverCalendarIds();
    const original = (await open.db.calendar.findOne(id!).exec())!.toJSON() as unknown as CalendarDoc;

    await applyLocalChange('calendar', id!, { event: { ...original.event, title: CANARY } }, { state: 'pending', message: null, outbox_id: 'ob-1' });
    await sync.server.db.updateTable('event_instances').set({ end_time: '23:59', updated_at: sql`clock_timestamp()` }).where('id', '=', id!).execute();
    const before = calendarRequests().length;
    first.reSync(['calendar']);
    await eventually(() => calendarRequests().length > before, 10_000, 'the pull');
    await first.awaitInSync();

    let local = (await open.db.calendar.findOne(id!).exec())!;
    expect(local.event.title).toBe(CANARY);
    expect(local.sync_state).toBe('pending');
    expect(local.end_time).toBe(original.end_time);

    await setSyncState('calendar', id!, { state: 'synced', message: null, outbox_id: 'ob-1' });
    local = (await open.db.calendar.findOne(id!).exec())!;
    expect(local.sync_state).toBe('synced');
    expect(local.event.title).toBe(original.event.title);
    expect(local.end_time).toBe('23:59');
  });

  it('stores no plaintext of what a person wrote or of who they are', async () => {
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    const [id] = await serverCalendarIds();
    const doc = (await open.db.calendar.findOne(id!).exec())!.toJSON() as unknown as CalendarDoc;
    await applyLocalChange('calendar', id!, { event: { ...doc.event, description: CANARY } }, { state: 'failed', message: `${CANARY} rejected`, outbox_id: 'ob-2' });
    expect((await open.db.calendar.findOne(id!).exec())?.event.description).toBe(CANARY);

    const names = (await listDatabases()).filter((n) => n.includes(open.name));
    expect(names.length).toBeGreaterThan(0);
    const text = (await Promise.all(names.map((n) => dumpIndexedDb(n)))).map((d) => d.text).join('\n');
    for (const secret of [CANARY, 'Rivers', 'Jamie', 'Willow House', doc.event.title, account.user.username]) {
      expect(text, secret).not.toContain(secret);
    }
    // clear fields stay queryable
    expect(text).toContain(doc.start_date);
    expect(text).toContain('failed');
  });

  it('a 401 stops replication and keeps the replica', async () => {
    const open = await openFresh();
    const handle = replicate(open);
    await handle.awaitInitial();
    const count = (await localCalendarIds(open)).length;
    sync.dropCookies();
    handle.reSync();
    await eventually(() => handle.stopped, 10_000, 'the stop');
    expect((await localCalendarIds(open)).length).toBe(count);
    account = await sync.signIn('jamie');
  });

  it('from the moment the replica is published until its replication has started, every collection counts as still to be pulled', async () => {
    const seen: { rota: boolean; feedback: boolean }[] = [];
    const stopWatching = replicaStore.subscribe(() => {
      if (!replicaStore.get()) return;
      const status = replicationStatus.get();
      seen.push({ rota: isFirstPullPending(status, 'rota'), feedback: isFirstPullPending(status, 'feedback') });
    });
    try {
      // The pulls never begin here: only what the screens see before and after the start is looked at.
      await openReplicaForAccount(account, uniqueName('site'), { ...replica, replicate: true, replication: { startWhen: () => () => undefined, liveTriggers: false } });
    } finally {
      stopWatching();
    }
    // A screen reading the replica as it is published says "loading", not "nothing here yet".
    expect(seen).toEqual([{ rota: true, feedback: true }]);
    const status = replicationStatus.get();
    expect(status.starting).toBe(false);
    expect(isFirstPullPending(status, 'feedback')).toBe(true);
    await closeReplica();
    expect(isFirstPullPending(replicationStatus.get(), 'feedback')).toBe(false);
  });

  it('wipeReplica removes the replica from IndexedDB', async () => {
    const open = await openFresh();
    await open.db.calendar.insert({
      id: 'x', updated_at: '2026-01-01T00:00:00.000000Z', resident_id: residentId(), start_date: '2026-01-01', start_time: null,
      end_date: '2026-01-01', end_time: null, sort_key: '2026-01-01T00:00', event: { id: 'e', title: CANARY, description: null, location: null, event_type_id: 't' },
      sync_state: 'synced', sync_message: null, sync_outbox_id: null,
    });
    expect((await listDatabases()).some((n) => n.includes(open.name))).toBe(true);
    await wipeReplica(undefined, replica);
    expect(getReplication()).toBeNull();
    expect((await listDatabases()).some((n) => n.includes(open.name))).toBe(false);
  });
});
