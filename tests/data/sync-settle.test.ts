import { afterEach, describe, expect, it } from 'vitest';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import { keepLocalChange, setSyncState } from '@/data/replica/local-writes';
import type { CalendarDoc } from '@/data/replica/types';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';

const account = testAccount;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

afterEach(async () => {
  await closeReplica();
});

/** A calendar document whose change waits on outbox entry `outboxId`. */
function pendingEvent(n: number, title: string, outboxId: string): CalendarDoc {
  return {
    id: uuid(n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), start_date: '2026-03-10', start_time: null,
    end_date: '2026-03-10', end_time: null, sort_key: '2026-03-10T00:00',
    event: { id: uuid(n + 1), title, description: null, location: null, event_type_id: uuid(12) },
    sync_state: 'pending', sync_message: null, sync_outbox_id: outboxId,
  };
}

describe('settling a write that a pull wrote back as pending', () => {
  it('marks the document synced again shortly after, when it still waits on the settled write', async () => {
    const { db } = await openReplicaForAccount(account, uniqueName('site'), replica);
    const doc = pendingEvent(10, 'Dentist', 'write-1');
    await db.calendar.insert(doc);

    await setSyncState('calendar', doc.id, { state: 'synced', message: null, outbox_id: null });
    expect((await db.calendar.findOne(doc.id).exec())?.get('sync_state')).toBe('synced');

    // The race: a pull that read the pending document writes it back just afterwards.
    await (await db.calendar.findOne(doc.id).exec())!.incrementalPatch({ sync_state: 'pending', sync_outbox_id: 'write-1' });
    expect((await db.calendar.findOne(doc.id).exec())?.get('sync_state')).toBe('pending');

    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await db.calendar.findOne(doc.id).exec())?.get('sync_state')).toBe('synced');
  });

  it('at once when the pull\'s write arrives (a page reloaded before the recheck would leave it pending for good)', async () => {
    const { db } = await openReplicaForAccount(account, uniqueName('site'), replica);
    const doc = pendingEvent(30, 'Swimming', 'write-3');
    await db.calendar.insert(doc);
    await setSyncState('calendar', doc.id, { state: 'synced', message: null, outbox_id: null }, { outboxId: 'write-3' });
    // The pull's stale write, then what the pull hands keepLocalChange (its received$).
    await (await db.calendar.findOne(doc.id).exec())!.incrementalPatch({ sync_state: 'pending', sync_outbox_id: 'write-3' });
    await keepLocalChange('calendar', { ...doc, sync_state: 'pending', sync_outbox_id: 'write-3' });
    expect((await db.calendar.findOne(doc.id).exec())?.get('sync_state')).toBe('synced');
  });

  it('leaves a newer pending write alone', async () => {
    const { db } = await openReplicaForAccount(account, uniqueName('site'), replica);
    await db.calendar.insert(pendingEvent(20, 'Football', 'write-1'));
    await setSyncState('calendar', uuid(20), { state: 'synced', message: null, outbox_id: null });
    // The person changed it again: a new write is on its way.
    await (await db.calendar.findOne(uuid(20)).exec())!.incrementalPatch({ sync_state: 'pending', sync_outbox_id: 'write-2' });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect((await db.calendar.findOne(uuid(20)).exec())?.get('sync_state')).toBe('pending');
  });
});
