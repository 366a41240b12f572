/**
 * Journal, voice, comments and their lookups as observables over the replica (testable without
 * React). Selectors and sorts use clear fields only (sort_key, entry_type, entry_id, created_at,
 * kind); search runs here, in memory, over the decrypted text (encrypted fields cannot be queried).
 */
import type { RxCollection } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { ReplicaDatabase } from '../replica/replica-store';
import type { CommentDoc, EmojiDoc, EntryDoc, EntryType, JournalDoc, LookupDoc, VoiceCategoryDoc, VoiceDoc } from '../replica/types';

export interface EntriesPage<T> {
  items: T[];
  hasMore: boolean;
}

/** The journal or voice collection, typed by what both hold. */
const entriesOf = (db: ReplicaDatabase, type: EntryType): RxCollection<EntryDoc> => db[type] as unknown as RxCollection<EntryDoc>;

const plain = <T>(docs: readonly { toJSON(): unknown }[]): T[] => docs.map((doc) => doc.toJSON() as T);

/** Case- and accent-insensitive folding for on-device search. */
const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase();

/** True when every word of `search` appears in the entry's text, reaction or creator's name. */
export function matchesSearch(entry: EntryDoc, search: string): boolean {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fold([entry.description ?? '', entry.reaction ?? '', entry.creator?.first_name ?? '', entry.creator?.last_name ?? ''].join(' '));
  return words.every((word) => haystack.includes(word));
}

function entries$<T extends EntryDoc>(db: ReplicaDatabase, type: EntryType, search: string, limit: number): Observable<EntriesPage<T>> {
  const size = Math.max(1, Math.floor(limit));
  const query = search.trim()
    ? entriesOf(db, type).find({ sort: [{ sort_key: 'desc' }] })
    : entriesOf(db, type).find({ sort: [{ sort_key: 'desc' }], limit: size + 1 });
  return query.$.pipe(
    map((docs) => {
      const all = plain<T>(docs).filter((entry) => matchesSearch(entry, search));
      return { items: all.slice(0, size), hasMore: all.length > size };
    }),
  );
}

/** Newest first (entry_date, entry_time descending); `search` filters on the device. */
export const journalEntries$ = (db: ReplicaDatabase, search: string, limit: number): Observable<EntriesPage<JournalDoc>> =>
  entries$<JournalDoc>(db, 'journal', search, limit);

/** Newest first (created_at descending), each with its category_id for grouping. */
export const voiceEntries$ = (db: ReplicaDatabase): Observable<VoiceDoc[]> =>
  db.voice.find({ sort: [{ sort_key: 'desc' }] }).$.pipe(map((docs) => plain<VoiceDoc>(docs)));

export function entry$<T extends EntryDoc>(db: ReplicaDatabase, type: EntryType, id: string): Observable<T | null> {
  return entriesOf(db, type).findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as T) : null)));
}

/** One entry's comments, oldest first. */
export function comments$(db: ReplicaDatabase, entryType: EntryType, entryId: string): Observable<CommentDoc[]> {
  return db.comments
    .find({ selector: { entry_type: entryType, entry_id: entryId }, sort: [{ created_at: 'asc' }] })
    .$.pipe(map((docs) => plain<CommentDoc>(docs)));
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

export function voiceCategories$(db: ReplicaDatabase): Observable<VoiceCategoryDoc[]> {
  return db.lookups.find({ selector: { kind: 'voice_category' } }).$.pipe(
    map((docs) =>
      plain<LookupDoc>(docs)
        .map((doc) => ({
          id: doc.id,
          updated_at: doc.updated_at,
          name: doc.name,
          description: (doc.data?.description as string | null | undefined) ?? null,
        }))
        .sort(byName),
    ),
  );
}

export function emojis$(db: ReplicaDatabase): Observable<EmojiDoc[]> {
  return db.lookups.find({ selector: { kind: 'emoji' } }).$.pipe(
    map((docs) =>
      plain<LookupDoc>(docs).map((doc) => ({
        id: doc.id,
        updated_at: doc.updated_at,
        name: doc.name,
        emoji: (doc.data?.emoji as string | undefined) ?? '',
      })),
    ),
  );
}
