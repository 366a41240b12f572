import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntryKind } from '@/contract/entry-kind';
import { eventTypes$, feedback$, feedbackCounts$, pastCalendar$, pastCalendarQuery, todaysRoster$, upcomingCalendar$, upcomingCalendarQuery } from '@/data/hooks/queries';
import { isBackwardWalk } from '@/data/database/descending-queries';
import { emojis$ } from '@/entries/hooks/entry-queries';
import { closeReplica, openReplicaForAccount, type ReplicaOptions } from '@/data/replica/lifecycle';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { CalendarDoc, FeedbackDoc, RosterDoc } from '@/data/replica/types';
import { fakeIdb, randomKey, testAccount, uniqueName, uuid } from './fixtures';

const synced = { sync_state: 'synced', sync_message: null, sync_outbox_id: null } as const;

const account = testAccount;

const replica: ReplicaOptions = { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false };

afterEach(async () => {
  await closeReplica();
});

const open = (): Promise<OpenReplica> => openReplicaForAccount(account, uniqueName('site'), replica);

function entry(n: number, start_date: string, start_time: string | null): CalendarDoc {
  return {
    id: uuid(100 + n), updated_at: '2026-01-01T00:00:00.000000Z', resident_id: uuid(2), start_date, start_time, end_date: start_date, end_time: null,
    sort_key: `${start_date}T${start_time ?? '00:00'}`, event: { id: uuid(200 + n), title: `E${n}`, description: null, location: null, event_type_id: uuid(300) }, ...synced,
  };
}

describe('the hooks’ queries on local data', () => {
  it('upcoming calendar: from today, by date then time, `limit` at a time with hasMore', async () => {
    const { db } = await open();
    await db.calendar.bulkInsert([
      entry(1, '2026-03-09', '10:00'), // yesterday
      entry(2, '2026-03-10', '15:00'),
      entry(3, '2026-03-10', null), // all day: first
      entry(4, '2026-03-10', '09:00'),
      entry(5, '2026-03-12', '08:00'),
      entry(6, '2026-04-01', '08:00'),
    ]);
    const first = await firstValueFrom(upcomingCalendar$(db, '2026-03-10', 2));
    expect(first.items.map((d) => d.event.title)).toEqual(['E3', 'E4']);
    expect(first.hasMore).toBe(true);
    const more = await firstValueFrom(upcomingCalendar$(db, '2026-03-10', 4));
    expect(more.items.map((d) => d.event.title)).toEqual(['E3', 'E4', 'E2', 'E5']);
    expect(more.hasMore).toBe(true);
    const all = await firstValueFrom(upcomingCalendar$(db, '2026-03-10', 10));
    expect(all.items).toHaveLength(5);
    expect(all.hasMore).toBe(false);
    const past = await firstValueFrom(pastCalendar$(db, '2026-03-10', 10));
    expect(past.items.map((d) => d.event.title)).toEqual(['E1']);
  });

  it('past calendar: most recent first, all-day after the timed ones of the same day, `limit` at a time', async () => {
    const { db } = await open();
    await db.calendar.bulkInsert([
      entry(1, '2026-03-01', '10:00'),
      entry(2, '2026-03-09', null),
      entry(3, '2026-03-09', '10:00'),
      entry(4, '2026-03-10', null), // today: not past
      entry(5, '2026-02-20', '23:00'),
    ]);
    const first = await firstValueFrom(pastCalendar$(db, '2026-03-10', 2));
    expect(first.items.map((d) => d.event.title)).toEqual(['E3', 'E2']);
    expect(first.hasMore).toBe(true);
    const all = await firstValueFrom(pastCalendar$(db, '2026-03-10', 10));
    expect(all.items.map((d) => d.event.title)).toEqual(['E3', 'E2', 'E1', 'E5']);
    expect(all.hasMore).toBe(false);
  });

  it('calendar pages walk one index for both their days and their order, so a page reads only a page', async () => {
    const { db } = await open();
    const upcoming = db.calendar.find(upcomingCalendarQuery('2026-03-10', 6)).getPreparedQuery();
    expect(upcoming.queryPlan).toMatchObject({ index: ['_deleted', 'sort_key', 'id'], sortSatisfiedByIndex: true, selectorSatisfiedByIndex: true });
    const past = db.calendar.find(pastCalendarQuery('2026-03-10', 6)).getPreparedQuery();
    expect(past.queryPlan).toMatchObject({ index: ['_deleted', 'sort_key', 'id'], selectorSatisfiedByIndex: true });
    expect(isBackwardWalk(past.query.sort, past.queryPlan)).toBe(true);
  });

  it("today's roster: only today's shifts, by start time then last name", async () => {
    const { db } = await open();
    const shift = (n: number, shift_date: string, starts_at: string, last_name: string): RosterDoc => ({
      id: uuid(400 + n), updated_at: '2026-01-01T00:00:00.000000Z', home_id: uuid(3), user_id: uuid(500 + n), shift_date, starts_at, ends_at: '23:00',
      user: { id: uuid(500 + n), first_name: 'A', last_name, has_photo: false }, ...synced,
    });
    await db.rota.bulkInsert([
      shift(1, '2026-03-10', '14:30', 'Zed'),
      shift(2, '2026-03-10', '07:00', 'Price'),
      shift(3, '2026-03-10', '07:00', 'Hassan'),
      shift(4, '2026-03-11', '06:00', 'Early'),
    ]);
    const roster = await firstValueFrom(todaysRoster$(db, '2026-03-10'));
    expect(roster.map((r) => r.user.last_name)).toEqual(['Hassan', 'Price', 'Zed']);
  });

  it('feedback: awaiting and not locked, by type, newest comment first; counts per type', async () => {
    const { db } = await open();
    const item = (n: number, type: EntryKind, extra: Partial<FeedbackDoc> = {}): FeedbackDoc => ({
      id: uuid(600 + n), updated_at: '2026-01-01T00:00:00.000000Z', type, resident_id: uuid(2), entry_id: uuid(700 + n), comment_id: uuid(800 + n),
      count: 1, awaiting_resident_response: true, locked_at: null, reaction: null,
      entry: { id: uuid(700 + n), excerpt: `x${n}`, created_at: '2026-01-01T00:00:00.000000Z' }, category: null,
      latest_comment: { id: uuid(800 + n), comment: 'c', created_at: '2026-01-01T00:00:00.000000Z', creator: { id: uuid(9), first_name: 'A', last_name: 'B', has_photo: false } },
      ...synced, ...extra,
    });
    await db.feedback.bulkInsert([
      item(1, 'journal'),
      item(2, 'journal', { awaiting_resident_response: false }),
      item(3, 'journal'),
      item(4, 'voice', { locked_at: '2026-01-02T00:00:00.000000Z' }),
      item(5, 'voice'),
    ]);
    expect((await firstValueFrom(feedback$(db, 'journal'))).map((f) => f.entry.excerpt)).toEqual(['x3', 'x1']);
    expect((await firstValueFrom(feedback$(db, 'voice'))).map((f) => f.entry.excerpt)).toEqual(['x5']);
    expect((await firstValueFrom(feedback$(db))).map((f) => f.entry.excerpt)).toEqual(['x5', 'x3', 'x1']);
    expect(await firstValueFrom(feedbackCounts$(db))).toEqual({ journal: 2, voice: 1 });
  });

  it('event types: id → name from the lookups collection', async () => {
    const { db } = await open();
    await db.lookups.bulkInsert([
      { id: uuid(1), kind: 'event_type', updated_at: '2026-01-01T00:00:00.000000Z', name: 'Health', data: null, ...synced },
      { id: uuid(2), kind: 'other', updated_at: '2026-01-01T00:00:00.000000Z', name: 'Nope', data: null, ...synced },
    ] as never);
    expect(await firstValueFrom(eventTypes$(db))).toEqual({ [uuid(1)]: 'Health' });
  });

  it('emojis: in the server\'s position order whatever their ids (the same picker on every device), unpositioned ones last', async () => {
    const { db } = await open();
    const at = '2026-01-01T00:00:00.000000Z';
    await db.lookups.bulkInsert([
      { id: uuid(1), kind: 'emoji', updated_at: at, name: 'Sad', data: { emoji: '😢', position: 2 }, ...synced },
      { id: uuid(2), kind: 'emoji', updated_at: at, name: 'Happy', data: { emoji: '😊', position: 0 }, ...synced },
      { id: uuid(3), kind: 'emoji', updated_at: at, name: 'Angry', data: { emoji: '😠' }, ...synced },
      { id: uuid(4), kind: 'emoji', updated_at: at, name: 'Joyful', data: { emoji: '😄', position: 1 }, ...synced },
    ] as never);
    expect((await firstValueFrom(emojis$(db))).map((e) => e.name)).toEqual(['Happy', 'Joyful', 'Sad', 'Angry']);
  });

  it('the account is kept encrypted in the replica and comes back', async () => {
    const replica = await open();
    const stored = await replica.db.resident.findOne('account').exec();
    expect(stored?.account?.user.username).toBe('kid');
  });
});
