import type { SyncTopic } from '@/contract/sync';

/**
 * The outbox's types, shared by the page and the service worker (no DOM-only or React code here).
 *
 * An outbox entry is stored in IndexedDB `hearth-outbox`. Only scheduling fields are plain; the
 * request (address, body, files) and what it belongs to are AES-GCM ciphertext under the data key.
 */

/** A replica collection name (mirrors `ReplicaCollectionName` of src/data/replica/local-writes.ts). */
export type OutboxCollection =
  | 'resident'
  | 'staff'
  | 'rota'
  | 'calendar'
  | 'lookups'
  | 'feedback'
  | 'files'
  | 'journal'
  | 'voice'
  | 'comments'
  | 'tasks'
  | 'points'
  | 'documents';

export interface LocalRef {
  readonly collection: OutboxCollection;
  readonly id: string;
  /**
   * Given to the outcome sink only: the outbox entry whose outcome this is. A change made to the
   * document after it (another entry) is not settled by it, even when the outcome is applied late
   * or twice (two tabs, a heartbeat and a message at once).
   */
  readonly outboxId?: string;
}

/** A multipart part: a text value, or the index of a file in the entry's encrypted files. */
export type MultipartPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly file: number; readonly filename: string; readonly type: string };

export type OutboxBody =
  | { readonly kind: 'json'; readonly json: string }
  | { readonly kind: 'multipart'; readonly parts: readonly MultipartPart[] };

/** The HTTP request as it will be sent (after decryption). */
export interface OutboxRequest {
  readonly method: 'POST' | 'PUT';
  /** API base at enqueue time (`/api` or a region's address), without trailing slash. */
  readonly base: string;
  /** Path below the base, with its query (`/v1/...?_method=PUT`). */
  readonly path: string;
  readonly body: OutboxBody;
}

/** What an entry belongs to; encrypted, kept after the request is sent so a page can apply the outcome. */
export interface OutboxMeta {
  readonly label: string;
  readonly local: LocalRef | null;
  readonly topics: readonly SyncTopic[];
  /** Shown when the server refuses without a message of its own (SPEC §8 texts). */
  readonly failureMessage: string;
}

/**
 * pending: waiting to be (re)sent; held: the server said 401/419, waits for sign-in;
 * failed: refused (422 or another 4xx), kept with its body until retried or discarded;
 * sent: delivered, body wiped, waiting for a page to mark the local document synced.
 */
export type OutboxState = 'pending' | 'held' | 'failed' | 'sent';

export interface OutboxRecord {
  /** Also the Idempotency-Key and the local document's `outbox_id`. */
  readonly id: string;
  /** Order of enqueueing (ms timestamp * 1000 + counter). */
  readonly seq: number;
  readonly createdAt: number;
  state: OutboxState;
  attempts: number;
  /** ms epoch; pending entries are not sent before. */
  nextAttemptAt: number;
  /** ms epoch; a replayer owns the entry until then (guards against two replayers). */
  leaseUntil: number;
  lastStatus: number | null;
  /** Ciphertext of OutboxMeta. */
  meta: string;
  /** Ciphertext of OutboxRequest; null once sent. */
  request: string | null;
  /** Each file: nonce(12) || AES-GCM ciphertext || tag(16). */
  files: Uint8Array[];
  /** Ciphertext of the failure message (state failed). */
  failure: string | null;
  /**
   * Ciphertext of what the server answered to a delivered write (`OutboxResult`), kept until a page
   * has applied the outcome: the row lets the page turn the optimistic document into the server's
   * copy (src/entries/data/settle.ts). Absent on entries written before it existed.
   */
  result?: string | null;
  /** The outcome (sent / failed) has been applied to the local replica by a page. */
  notified: boolean;
  /**
   * How many times a refused write was sent again ("Try again"). The server keeps a 4xx answer
   * under its Idempotency-Key for a day and gives it back to a repeat without looking again, so a
   * refusal whose reason has passed would be refused for a day: each try goes under a key of its
   * own (`idempotencyKeyOf`). Absent on entries never tried again.
   */
  keyRound?: number;
}

/**
 * The Idempotency-Key a record is sent with: its id, and after a refusal tried again its id and
 * round. A refusal changed nothing on the server, so a new key cannot apply the write twice.
 */
export function idempotencyKeyOf(record: Pick<OutboxRecord, 'id' | 'keyRound'>): string {
  return record.keyRound ? `${record.id}.${record.keyRound}` : record.id;
}

/** What a delivered write answered, as far as the page needs it (sealed at rest). */
export interface OutboxResult {
  /** `data.id` of the answer, when it had one (the created or updated row). */
  readonly id: string | null;
  /** `data` of the answer (the row as the server now has it), when it was an object. */
  readonly data: Record<string, unknown> | null;
  /**
   * A refusal's field errors (`errors` of a 422), for a write whose screen shows them beside its
   * fields (a form document's answers). Absent for delivered writes.
   */
  readonly errors?: Readonly<Record<string, readonly string[]>>;
}

/** A named file part other than `files[i]` (the drawing: `canvas`). */
export interface NamedFilePart {
  readonly name: string;
  readonly file: Blob;
  /** Default: the File's name, else the part name. */
  readonly filename?: string;
}

/** What the page hands to enqueueWrite. */
export interface WriteInput {
  readonly method: 'POST' | 'PUT';
  readonly path: string;
  /** Multipart fields (SPEC §5): nulls skipped, arrays repeated as `name[]`. */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** JSON body (app settings, push). */
  readonly json?: unknown;
  /** Multipart files, sent as `files[0]`, `files[1]`, … */
  readonly files?: readonly Blob[];
  /** Further file parts by name, after the indexed files (the drawing as `canvas`). */
  readonly fileFields?: readonly NamedFilePart[];
  /** Updates of entries: POST with `_method=PUT` (query and field). */
  readonly methodOverride?: 'PUT';
  readonly idempotencyKey: string;
  readonly local: LocalRef | null;
  readonly label: string;
  readonly topics?: readonly SyncTopic[];
  readonly failureMessage: string;
}

/** Messages on the `hearth-outbox` BroadcastChannel and between page and service worker. */
export type OutboxMessage =
  | { readonly type: 'outbox:changed' }
  /** The worker cannot replay now (no data key it can read, no CSRF token): a page should. */
  | { readonly type: 'outbox:need-page'; readonly reason: 'key' | 'csrf' }
  | { readonly type: 'outbox:held'; readonly status: 401 | 419 };

/** Page → service worker. */
export type OutboxCommand =
  | { readonly type: 'outbox:flush'; readonly csrfToken: string | null }
  | { readonly type: 'outbox:resume'; readonly csrfToken: string | null };

/**
 * `IDEMPOTENCY_HEADER` of src/contract/sync.ts, repeated here so the entry chunk and the worker
 * do not load zod with the contract module (tests/data/outbox-replay.test.ts checks they agree).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const OUTBOX_CHANNEL = 'hearth-outbox';
export const OUTBOX_LOCK = 'hearth-outbox-replay';
/** Workbox's background-sync tag for the queue name `hearth-outbox`. */
export const OUTBOX_QUEUE_NAME = 'hearth-outbox';
