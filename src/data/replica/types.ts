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
import type { Document, DocumentSubmission } from '@/contract/documents';
import type { Answers } from '@/contract/forms';
import type { Comment } from '@/contract/comments';
import type { Emoji, EntryFile, JournalEntry, VoiceCategory, VoiceEntry } from '@/contract/entries';
import type { EntryKind } from '@/contract/entry-kind';
import type { FeedbackItem } from '@/contract/feedback';
import type { AssociatedUser, ResidentDetails } from '@/contract/residents';
import type { RosterItem } from '@/contract/rota';
import type { Reward, RewardExchange } from '@/contract/rewards';
import type { PointsEntry, TaskComment, TaskLog } from '@/contract/tasks';
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
export type LookupKind = 'event_type' | 'voice_category' | 'emoji' | 'form' | 'reward';
/** One item of a small lookup list (event types, voice categories, emojis, form names, the home's rewards). */
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
/**
 * Cached bytes, base64 in an encrypted field, keyed by a cache key: `photo:<user id>` (profile
 * photos), `file:<module>:<file id>` (entry, comment and objective files viewed online),
 * `local:<file id>` (an attachment or drawing written on this device and not uploaded yet, see
 * src/entries/data), `draft:<key>` (a form draft: `data` is its JSON text, content_type
 * application/json, see src/data/drafts.ts), `kept:<document id>:<blob id>:<n>` (chunk n of a
 * document's file kept offline, see src/data/documents/kept-bytes.ts), `summary:<name>` (a summary
 * derived from other documents, such as the journal's reactions, see
 * src/entries/data/journal-reactions.ts, or what the device keeps of a refused entry's field errors,
 * `summary:refused:<edit form's draft key>`, see src/entries/data/refused-fields.ts).
 */
export type FileKind = 'photo' | 'file' | 'local' | 'draft' | 'kept' | 'summary';
export interface FileDoc extends SyncFields {
  id: string;
  kind: FileKind;
  updated_at: string;
  content_type: string;
  /** base64 of the bytes (a draft: its JSON text); null when the server has none (a remembered 404). */
  data: string | null;
}

/**
 * Journal and voice entries. `sort_key` (clear, indexed) orders the lists newest first: journal
 * `entry_date` + `T` + `entry_time`, voice `created_at`. `local_only` is true for an entry written on
 * this device that the server has not created yet (its id is the write's Idempotency-Key, sent with
 * the create and kept by the server, see src/entries/data/settle.ts).
 */
interface EntryExtras {
  sort_key: string;
  local_only: boolean;
}
export type JournalDoc = Row<JournalEntry> & SyncFields & EntryExtras;
export type VoiceDoc = Row<VoiceEntry> & SyncFields & EntryExtras;
export type EntryDoc = JournalDoc | VoiceDoc;
/** A comment of a journal or voice entry (`entry_type` says which). */
export type CommentDoc = Row<Comment> & SyncFields & { entry_type: EntryKind; local_only: boolean };
export type VoiceCategoryDoc = Row<VoiceCategory>;

/**
 * The `tasks` collection holds two kinds of documents (as `resident` holds details and the account):
 * - `log`: a task log as the server lists it (both tabs), `status` current or completed, its
 *   comments newest first; `task_log_id` is its own id; `sort_key` = task date + `T` + created_at
 *   (newest task date first).
 * - `comment`: the young person's own comment or review written on this device (an optimistic
 *   overlay on the log's thread): pending, failed, or synced until the log's next pull carries it.
 *   `status` is '' and `sort_key` its created_at.
 * Clear: id, kind, updated_at, task_log_id, status, sort_key, local_only, sync fields; the rest is
 * encrypted.
 */
export type TaskLogDoc = Row<TaskLog> & SyncFields & { kind: 'log'; task_log_id: string; sort_key: string; local_only: false };
export type TaskCommentOverlayDoc = Row<TaskComment> &
  SyncFields & {
    kind: 'comment';
    status: '';
    sort_key: string;
    /** The server has not created it yet (a create still on its way). */
    local_only: boolean;
  };
export type TaskDoc = TaskLogDoc | TaskCommentOverlayDoc;
/** What the `tasks` collection stores: either kind, every field of the other optional. */
export interface TasksCollectionDoc
  extends SyncFields,
    Partial<Omit<TaskLogDoc, 'id' | 'kind' | 'updated_at' | 'task_log_id' | 'status' | 'sort_key' | 'local_only' | keyof SyncFields>>,
    Partial<Omit<TaskCommentOverlayDoc, 'id' | 'kind' | 'updated_at' | 'task_log_id' | 'status' | 'sort_key' | 'local_only' | keyof SyncFields>> {
  id: string;
  kind: 'log' | 'comment';
  updated_at: string;
  task_log_id: string;
  status: TaskLog['status'] | '';
  sort_key: string;
  local_only: boolean;
}

/**
 * One entry of the points ledger (GET /v1/projects/residents/{id}/points), kind `ledger` of the
 * `points` collection. `sort_key` = created_at.
 */
export type PointsDoc = Omit<Row<PointsEntry>, 'resident_id'> & SyncFields & { kind: 'ledger'; sort_key: string };

/**
 * One reward exchange (SPEC §3 "Reward history item"), kind `exchange` of the `points` collection:
 * the server's row, or this device's optimistic exchange (`local_only` until the server has it;
 * pending while queued, failed when refused). `sort_key` = created_at (newest first in the history).
 */
export type RewardExchangeDoc = Row<RewardExchange> & SyncFields & { kind: 'exchange'; sort_key: string; local_only: boolean };

/** What the `points` collection stores: either kind, every field of the other optional. */
export interface PointsCollectionDoc
  extends SyncFields,
    Partial<Omit<PointsDoc, 'id' | 'kind' | 'updated_at' | 'sort_key' | keyof SyncFields>>,
    Partial<Omit<RewardExchangeDoc, 'id' | 'kind' | 'updated_at' | 'sort_key' | 'created_at' | keyof SyncFields>> {
  id: string;
  kind: 'ledger' | 'exchange';
  updated_at: string;
  sort_key: string;
}

/**
 * A reward of the young person's home, as `lookups` kind `reward` keeps it (`name` and `data`
 * encrypted) and as the screens read it (src/data/replica/rewards.ts `rewardOf`).
 */
export type RewardDoc = Row<Reward>;
export type EmojiDoc = Row<Emoji>;

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

/**
 * A `files` document of kind `summary`: a device-only record the app keeps beside the data (the
 * journal's reactions, the file sweep's names, a refused entry's field errors), its value as JSON.
 */
export const summaryDoc = (id: string, value: unknown): FileDoc => ({
  id,
  kind: 'summary',
  updated_at: new Date().toISOString(),
  content_type: 'application/json',
  data: JSON.stringify(value),
  ...syncFields(SYNCED),
});

export const syncStateOf = (doc: SyncFields): SyncState => ({
  state: doc.sync_state,
  message: doc.sync_message,
  outbox_id: doc.sync_outbox_id,
});

/** The account document's id in the `resident` collection. */
export const ACCOUNT_DOC_ID = 'account';

/**
 * A document staff shared (issue 11): a row of GET /v1/documents as it is, in the `documents`
 * collection (kind file, book, gallery or form). A tombstone removes it.
 */
export type DocumentDoc = Row<Document> & SyncFields;

/** One stored file of a document kept on this device: how far its chunks are stored. */
export interface KeptBlob {
  readonly id: string;
  readonly mime: string;
  /** Bytes of the whole file. */
  readonly size: number;
  /** Chunks (src/data/documents/kept-bytes.ts KEPT_CHUNK_BYTES each, the last shorter) stored so far. */
  readonly chunks: number;
  /** Bytes stored so far. */
  readonly stored: number;
}

/** What of a document is kept on this device (encrypted chunks in `files`). */
export interface KeptManifest {
  /** The document's `version` the kept files belong to. */
  readonly version: number;
  readonly blobs: readonly KeptBlob[];
  /** Every file of the document is stored whole. */
  readonly complete: boolean;
  /** Bytes stored, all files together (the storage accounting /documents shows). */
  readonly bytes: number;
  readonly at: string;
}

/** A form's answers written on this device and on their way (the outbox's local document for the submission). */
export interface OutgoingSubmission {
  /** The submission's client id (sent as `id`; the server keeps it). */
  readonly id: string;
  readonly answers: Answers;
  /** Files answered (kept encrypted on the device as `local:<id>` until delivered). */
  readonly files: readonly EntryFile[];
  readonly queued_at: string;
}

/** Where a young person stopped reading a book. */
export interface ReadingPosition {
  readonly page_id: string;
  readonly at: string;
}

/**
 * This device's own record about one document (`state:<document id>`, kind `state`, in the
 * `documents` collection; a pull never writes it): see src/data/replica/documents.ts.
 */
export interface DocumentStateDoc extends SyncFields {
  id: string;
  kind: 'state';
  updated_at: string;
  document_id: string;
  /** The document's `version` when it was last opened here (null: never). */
  opened_version: number | null;
  reading: ReadingPosition | null;
  /** Keep offline: the young person's choice (null: the default for its size). */
  keep: boolean | null;
  kept: KeptManifest | null;
  outgoing: OutgoingSubmission | null;
  /** The server's field errors when it refused the answers (422). */
  errors: Record<string, string[]> | null;
}

/** What the `documents` collection stores: either kind, every field of the other optional. */
export interface DocumentsCollectionDoc
  extends SyncFields,
    Partial<Omit<DocumentDoc, 'id' | 'kind' | 'updated_at' | keyof SyncFields>>,
    Partial<Omit<DocumentStateDoc, 'id' | 'kind' | 'updated_at' | keyof SyncFields>> {
  id: string;
  kind: DocumentDoc['kind'] | 'state';
  updated_at: string;
}

export type { DocumentSubmission };
