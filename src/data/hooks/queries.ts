/**
 * The hooks' query logic as plain observables over the replica, so it can be tested without React.
 * Selectors and sorts touch only clear fields; ordering by encrypted fields (names) happens here,
 * after decryption.
 */
import type { MangoQuery } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { EntryKind } from '@/contract/entry-kind';
import type { ReplicaDatabase } from '../replica/replica-store';
import type { CalendarDoc, FeedbackDoc, ResidentDoc, RosterDoc, StaffDoc } from '../replica/types';

export interface CalendarPage {
  items: CalendarDoc[];
  hasMore: boolean;
}
export type FeedbackCounts = Record<EntryKind, number>;

/** Plain, decrypted copies (the UI never holds RxDocuments). */
function plain<T>(docs: readonly { toJSON(): unknown }[]): T[] {
  return docs.map((doc) => doc.toJSON() as T);
}

const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

export function residentDetails$(db: ReplicaDatabase, residentId: string | null): Observable<ResidentDoc | null> {
  const query = residentId
    ? db.resident.find({ selector: { id: residentId, kind: 'details' } })
    : db.resident.find({ selector: { kind: 'details' }, limit: 1 });
  return query.$.pipe(map((docs) => (plain<ResidentDoc>(docs)[0] ?? null)));
}

export function associatedUsers$(db: ReplicaDatabase): Observable<StaffDoc[]> {
  return db.staff.find().$.pipe(
    map((docs) => plain<StaffDoc>(docs).sort((a, b) => byText(a.last_name, b.last_name) || byText(a.first_name, b.first_name))),
  );
}

/** Today's shifts, by start time then last name. */
export function todaysRoster$(db: ReplicaDatabase, today: string): Observable<RosterDoc[]> {
  return db.rota.find({ selector: { shift_date: today }, sort: [{ starts_at: 'asc' }] }).$.pipe(
    map((docs) =>
      plain<RosterDoc>(docs).sort(
        (a, b) => a.starts_at.localeCompare(b.starts_at) || byText(a.user.last_name, b.user.last_name) || byText(a.user.first_name, b.user.first_name),
      ),
    ),
  );
}

/**
 * Newest comment first: by the latest comment's time, then its id. SPEC §4 sorts by comment_id,
 * which was time order while the server made every id (UUIDv7); a reply's id is now made on the
 * device (a random UUID), so the id alone no longer says which came last.
 */
const byNewestComment = (a: FeedbackDoc, b: FeedbackDoc): number =>
  b.latest_comment.created_at.localeCompare(a.latest_comment.created_at) || b.comment_id.localeCompare(a.comment_id);

/** SPEC §4: awaiting the young person's response, not locked, newest comment first. */
export function feedback$(db: ReplicaDatabase, type?: EntryKind): Observable<FeedbackDoc[]> {
  return db.feedback
    .find({ selector: { awaiting_resident_response: true, locked_at: null, ...(type ? { type } : {}) } })
    .$.pipe(map((docs) => plain<FeedbackDoc>(docs).sort(byNewestComment)));
}

export function feedbackCounts$(db: ReplicaDatabase): Observable<FeedbackCounts> {
  return feedback$(db).pipe(
    map((items) => ({
      journal: items.filter((i) => i.type === 'journal').length,
      voice: items.filter((i) => i.type === 'voice').length,
    })),
  );
}

/**
 * The calendar's pages select on `sort_key` (`<start date>T<time>`), not on `start_date`: the same
 * days (a key is at or after `today` exactly when its date is), but one index then gives both the
 * range and the order, so a page reads `limit` + 1 instances, not every one it could come from
 * (5,000 after a year of a busy home's calendar, each decrypted to be sorted). Past pages walk it
 * backwards (../database/descending-queries.ts).
 */
export const upcomingCalendarQuery = (today: string, limit: number): MangoQuery<CalendarDoc> => ({
  selector: { sort_key: { $gte: today } },
  sort: [{ sort_key: 'asc' }, { id: 'asc' }],
  limit,
});
export const pastCalendarQuery = (today: string, limit: number): MangoQuery<CalendarDoc> => ({
  selector: { sort_key: { $lt: today } },
  sort: [{ sort_key: 'desc' }, { id: 'desc' }],
  limit,
});

/** From today on, by start date and time; one extra document tells whether there is more. */
export function upcomingCalendar$(db: ReplicaDatabase, today: string, limit: number): Observable<CalendarPage> {
  const size = Math.max(1, Math.floor(limit));
  return db.calendar
    .find(upcomingCalendarQuery(today, size + 1))
    .$.pipe(map((docs) => ({ items: plain<CalendarDoc>(docs.slice(0, size)), hasMore: docs.length > size })));
}

/** Before today, most recent first. */
export function pastCalendar$(db: ReplicaDatabase, today: string, limit: number): Observable<CalendarPage> {
  const size = Math.max(1, Math.floor(limit));
  return db.calendar
    .find(pastCalendarQuery(today, size + 1))
    .$.pipe(map((docs) => ({ items: plain<CalendarDoc>(docs.slice(0, size)), hasMore: docs.length > size })));
}

export function eventTypes$(db: ReplicaDatabase): Observable<Record<string, string>> {
  return db.lookups
    .find({ selector: { kind: 'event_type' } })
    .$.pipe(map((docs) => Object.fromEntries(docs.map((doc) => [doc.id, doc.name]))));
}
