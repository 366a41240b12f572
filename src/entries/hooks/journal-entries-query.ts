/**
 * The journal list over the replica: newest first, searched and filtered on the device (no
 * network). The date range runs in the query itself, on the clear, indexed `sort_key`
 * (`entry_date`T`entry_time`), walked backwards, so with no other filter only one page (`limit` + 1) is read. Search,
 * reaction and sharing need the decrypted text (encrypted fields cannot be queried): the range is
 * read whole, in order, and filtered in memory; the documents are already decrypted in RxDB's
 * cache, so for 1,000 entries that is a pass over 1,000 small objects per change.
 */
import type { MangoQuerySelector, MangoQuerySortPart, RxCollection } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import type { JournalDoc } from '../../data/replica/types';

export interface EntriesPage<T> {
  items: T[];
  hasMore: boolean;
}

export type SharingFilter = 'shared' | 'private';

/** On-device filters of the journal list; absent or empty means "any". */
export interface JournalFilters {
  /** yyyy-MM-dd, inclusive, on entry_date. */
  readonly from?: string;
  /** yyyy-MM-dd, inclusive, on entry_date. */
  readonly to?: string;
  /** An emoji as stored on the entry (its text). */
  readonly reaction?: string;
  /** Shared with someone (staff or home management), or only the young person. */
  readonly sharing?: SharingFilter;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Case- and accent-insensitive folding for on-device search. */
const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

/** True when every word of `search` appears in the entry's text, reaction or creator's name. */
export function matchesSearch(entry: JournalDoc, search: string): boolean {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold([entry.description ?? '', entry.reaction ?? '', entry.creator?.first_name ?? '', entry.creator?.last_name ?? ''].join(' '));
  return words.every((word) => haystack.includes(word));
}

export const isShared = (entry: JournalDoc): boolean => entry.shared_with.length > 0 || entry.shared_with_management;

/** The `sort_key` range of a date filter; dates given the wrong way round are swapped. */
export function dateRangeSelector(filters: JournalFilters): MangoQuerySelector<JournalDoc> {
  let from = filters.from && DATE.test(filters.from) ? filters.from : undefined;
  let to = filters.to && DATE.test(filters.to) ? filters.to : undefined;
  if (from && to && from > to) [from, to] = [to, from];
  const range: Record<string, string> = {};
  if (from) range.$gte = from;
  // Every HH:mm of the day sorts before 24:00.
  if (to) range.$lte = `${to}T24:00`;
  return Object.keys(range).length > 0 ? { sort_key: range } : {};
}

function matcher(search: string, filters: JournalFilters): ((entry: JournalDoc) => boolean) | null {
  const reaction = filters.reaction || null;
  const sharing = filters.sharing ?? null;
  if (!search.trim() && !reaction && !sharing) return null;
  return (entry) =>
    (!reaction || entry.reaction === reaction) &&
    (!sharing || isShared(entry) === (sharing === 'shared')) &&
    matchesSearch(entry, search);
}

const journalOf = (db: ReplicaDatabase): RxCollection<JournalDoc> => db.journal as unknown as RxCollection<JournalDoc>;

/**
 * Newest first, and the id descending between entries of the same minute: every part descending,
 * so the replica walks its `sort_key` index backwards and stops after the page
 * (src/data/database/descending-queries.ts) instead of reading and sorting every entry.
 */
const NEWEST_FIRST: MangoQuerySortPart<JournalDoc>[] = [{ sort_key: 'desc' }, { id: 'desc' }];

/** Newest first (entry_date, entry_time descending), `limit` at a time; search and filters on the device. */
export function journalEntries$(db: ReplicaDatabase, search: string, limit: number, filters: JournalFilters = {}): Observable<EntriesPage<JournalDoc>> {
  const size = Math.max(1, Math.floor(limit));
  const selector = dateRangeSelector(filters);
  const matches = matcher(search, filters);
  const sort = NEWEST_FIRST;
  const query = matches ? journalOf(db).find({ selector, sort }) : journalOf(db).find({ selector, sort, limit: size + 1 });
  return query.$.pipe(
    map((docs) => {
      // A search or a filter reads every entry: it looks at each one's stored fields, and copies
      // (`toJSON`) only the page it shows, not thousands of entries at every keystroke.
      const found = matches ? docs.filter((doc) => matches(doc._data as JournalDoc)) : docs;
      return { items: found.slice(0, size).map((doc) => doc.toJSON() as JournalDoc), hasMore: found.length > size };
    }),
  );
}
