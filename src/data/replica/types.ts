/**
 * The replica's plain (decrypted) document types, derived from the contract's zod types so the
 * wire format and the local documents have one source. The UI only ever sees these: the storage
 * wrapper encrypts the fields listed in ./collections on the way to IndexedDB.
 *
 * RxDB refuses field names starting with `_` (schema check SC1), so the optimistic-write state the
 * outbox sets lives in three flat fields (`sync_state` clear for queries, `sync_message`
 * encrypted, `sync_outbox_id` clear) rather than one `_sync` object; `syncStateOf(doc)` gives the
 * object form of ./local-writes.
 */
import type { CalendarInstance, EventType } from '@/contract/calendar';
import type { FeedbackItem } from '@/contract/feedback';
import type { AssociatedUser, ResidentDetails } from '@/contract/residents';
import type { RosterItem } from '@/contract/rota';
import type { Account } from '@/contract/users';

export type SyncStateName = 'synced' | 'pending' | 'failed';

export interface SyncState {
  state: SyncStateName;
  message: string | null;
  outbox_id: string | null;
}

export interface SyncFields {
  sync_state: SyncStateName;
  sync_message: string | null;
  sync_outbox_id: string | null;
  /** Internal: the server's copy parked while a local change is pending (see local-writes). */
  sync_server?: Record<string, unknown> | null;
}

/** A server row as stored: `deleted_at` becomes RxDB's `_deleted`, so it is not kept. */
type Row<T> = Omit<T, 'deleted_at'>;

/** GET /v1/projects/residents/{id}: the young person's details, flags and app settings. */
export type ResidentDoc = Row<ResidentDetails> & SyncFields & { kind: 'details' };
/** The signed-in account (GET /v1/auth/user), kept encrypted in the `resident` collection. */
export interface AccountDoc extends SyncFields {
  id: string;
  kind: 'account';
  user_id: string;
  updated_at: string;
  account: Account;
}
export type StaffDoc = Row<AssociatedUser> & SyncFields;
export type RosterDoc = Row<RosterItem> & SyncFields;
/** `sort_key` = `start_date` + `T` + (`start_time` or `00:00`): one clear, required, indexed sort field. */
export type CalendarDoc = Row<CalendarInstance> & SyncFields & { sort_key: string };
export type LookupKind = 'event_type';
/** One item of a small lookup list (event types now; voice categories, emojis later). */
export interface LookupDoc extends SyncFields {
  id: string;
  kind: LookupKind;
  updated_at: string;
  name: string;
  /** Anything else the item carries (encrypted). */
  data: Record<string, unknown> | null;
}
export type EventTypeDoc = Row<EventType>;
export type FeedbackDoc = Row<FeedbackItem> & SyncFields;
/** Cached bytes (profile photos...), base64 in an encrypted field, keyed by a cache key such as `photo:<user id>`. */
export interface FileDoc extends SyncFields {
  id: string;
  kind: 'photo';
  updated_at: string;
  content_type: string;
  /** base64 of the bytes; null when the server has none (a remembered 404). */
  data: string | null;
}

/** What the `resident` collection stores: details documents and the one account document. */
export interface ResidentCollectionDoc extends SyncFields, Partial<Omit<ResidentDoc, 'id' | 'kind' | 'updated_at' | keyof SyncFields>> {
  id: string;
  kind: 'details' | 'account';
  updated_at: string;
  account?: Account;
}

export const SYNCED: SyncState = Object.freeze({ state: 'synced', message: null, outbox_id: null }) as SyncState;

export const syncFields = (sync: SyncState): SyncFields => ({
  sync_state: sync.state,
  sync_message: sync.message,
  sync_outbox_id: sync.outbox_id,
});

export const syncStateOf = (doc: SyncFields): SyncState => ({
  state: doc.sync_state,
  message: doc.sync_message,
  outbox_id: doc.sync_outbox_id,
});

/** The account document's id in the `resident` collection. */
export const ACCOUNT_DOC_ID = 'account';
