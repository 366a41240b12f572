/**
 * Voice, single entries, comments and their lookups as observables over the replica (testable
 * without React). Selectors and sorts use clear fields only (sort_key, entry_type, entry_id,
 * created_at, kind). The journal list, with its search and filters, is journal-entries-query.ts.
 */
import type { EntryKind } from '@/contract/entry-kind';
import type { RxCollection } from 'rxdb';
import { map, type Observable } from 'rxjs';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import type { EntriesPage } from './journal-entries-query';
import type { CommentDoc, EmojiDoc, EntryDoc, LookupDoc, VoiceCategoryDoc, VoiceDoc } from '../../data/replica/types';

/** The journal or voice collection, typed by what both hold. */
const entriesOf = (db: ReplicaDatabase, type: EntryKind): RxCollection<EntryDoc> => db[type] as unknown as RxCollection<EntryDoc>;

const plain = <T>(docs: readonly { toJSON(): unknown }[]): T[] => docs.map((doc) => doc.toJSON() as T);

/**
 * The newest `limit` voice entries (sort_key descending, walked backwards on its index: one page is
 * read, not every message a young person ever sent), each with its category_id for grouping.
 */
export const voiceEntries$ = (db: ReplicaDatabase, limit: number): Observable<EntriesPage<VoiceDoc>> =>
  db.voice
    .find({ sort: [{ sort_key: 'desc' }], limit: limit + 1 })
    .$.pipe(map((docs) => ({ items: plain<VoiceDoc>(docs.slice(0, limit)), hasMore: docs.length > limit })));

export function entry$<T extends EntryDoc>(db: ReplicaDatabase, type: EntryKind, id: string): Observable<T | null> {
  return entriesOf(db, type).findOne(id).$.pipe(map((doc) => (doc ? (doc.toJSON() as T) : null)));
}

/**
 * One entry's comments, oldest first: by created_at, then id for a stable order. Never by id alone:
 * a reply's id is made on the device (a random UUID) and says nothing about when it was written.
 */
export function comments$(db: ReplicaDatabase, entryType: EntryKind, entryId: string): Observable<CommentDoc[]> {
  return db.comments
    .find({ selector: { entry_type: entryType, entry_id: entryId }, sort: [{ created_at: 'asc' }, { id: 'asc' }] })
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

/** In the server's order (`position`), the same on every device; by name where a position is missing. */
export function emojis$(db: ReplicaDatabase): Observable<EmojiDoc[]> {
  return db.lookups.find({ selector: { kind: 'emoji' } }).$.pipe(
    map((docs) =>
      plain<LookupDoc>(docs)
        .map((doc) => ({
          id: doc.id,
          updated_at: doc.updated_at,
          name: doc.name,
          emoji: (doc.data?.emoji as string | undefined) ?? '',
          position: typeof doc.data?.position === 'number' ? doc.data.position : Number.MAX_SAFE_INTEGER,
        }))
        .sort((a, b) => a.position - b.position || byName(a, b)),
    ),
  );
}
