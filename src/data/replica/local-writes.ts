/**
 * The outbox's door into the replica: optimistic documents and their sync state.
 * A pull never overwrites a document whose `sync_state` is pending or failed; the server's copy
 * waits in `sync_server` and replaces the local one when the outbox marks it synced.
 *
 * The pull decides that in its modifier, a moment before RxDB writes what it decided; a write
 * decided on a local state the document no longer has is refused by the storage and decided again
 * on the document as it is then (../database/refused-pulls.ts), so nothing here has to put a
 * change back over a pull or settle a document twice.
 *
 * A document removed here still has its local change (pending or failed), which the file sweep
 * never blanks: it is emptied in the write that removes it (./remove-emptied.ts).
 */
import type { RxCollection, RxDocument } from 'rxdb';
import { incrementalRemoveEmptied, removeEmptied } from './remove-emptied';
import { whenReplicaOpen } from './replica-store';
import { syncFields } from './types';
import type { SyncState } from './types';

export type { SyncState } from './types';

export type ReplicaCollectionName =
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

type Doc = Record<string, unknown> & { id: string };

/**
 * A pending change to a document that matches the server keeps the server's copy, marked as the
 * base, in `sync_server`: if the server refuses the change for good, the young person can discard
 * it and get that copy back, offline too (`discardLocalChange`). When the change is delivered the
 * base is simply dropped (it is older than what was sent); a pull replaces it with a newer copy.
 */
const BASE = 'sync_base';
function baseFor(current: Doc, sync: SyncState): unknown {
  const kept = (current.sync_server as Record<string, unknown> | null | undefined) ?? null;
  if (sync.state !== 'pending' || current.sync_state !== 'synced' || current.local_only === true) return kept;
  return { ...asParked(current), [BASE]: true };
}

/**
 * Takes back a local change the server will not take: the server's copy comes back (the one a pull
 * parked, or the base kept when the change was made), and a document the server never had goes.
 * False when there is no copy to go back to (then it stays, so nothing is lost).
 */
export async function discardLocalChange(collection: ReplicaCollectionName, id: string): Promise<boolean> {
  const doc = await (await collectionOf(collection)).findOne(id).exec();
  if (!doc) return true;
  const current = doc.toMutableJSON() as Doc;
  const parked = (current.sync_server as Record<string, unknown> | null | undefined) ?? null;
  if (!parked && current.local_only !== true) return false;
  if (!parked || parked._deleted === true) {
    await removeEmptied(doc);
    return true;
  }
  const { _deleted: _gone, [BASE]: _base, ...server } = parked;
  await doc.incrementalModify(() => ({ ...(server as Doc), ...syncFields({ state: 'synced', message: null, outbox_id: null }), sync_server: null, id }));
  return true;
}

/** A document as a parked server copy: without RxDB's own fields and without a copy of its own. */
function asParked(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([field]) => !field.startsWith('_') && field !== 'sync_server'));
}

async function collectionOf(name: ReplicaCollectionName): Promise<RxCollection<Doc>> {
  const { db } = await whenReplicaOpen();
  return db.collections[name] as unknown as RxCollection<Doc>;
}

export interface LocalChangeOptions {
  /**
   * The server copy this change is made on, when it is not the document itself (the other version
   * of an edit conflict the young person chose to write over): kept as the change's base.
   */
  readonly base?: Record<string, unknown> | null;
}

/** Upsert-merges an optimistic change: `patch` over the current document (or a new one). */
export async function applyLocalChange(
  collection: ReplicaCollectionName,
  id: string,
  patch: Record<string, unknown>,
  sync: SyncState,
  options: LocalChangeOptions = {},
): Promise<void> {
  const target = await collectionOf(collection);
  const { sync_server: _ignored, ...clean } = patch;
  const base = options.base ? { ...asParked(options.base), [BASE]: true } : null;
  const merge = (current: Doc): Doc => ({ ...current, ...clean, ...syncFields(sync), sync_server: base ?? baseFor(current, sync), id });
  const existing = await target.findOne(id).exec();
  if (existing) {
    await existing.incrementalModify(merge);
    return;
  }
  try {
    // A new document: `patch` must then hold every required field of the collection.
    await target.insert(merge({ id }));
  } catch (error) {
    const raced = await target.findOne(id).exec();
    if (!raced) throw error;
    await raced.incrementalModify(merge);
  }
}

/**
 * Sets a document's sync state. Marking it synced swaps in the server copy a pull parked while the
 * change was pending (or removes the document when that copy is a tombstone).
 *
 * `settled`: the outbox entry whose outcome this is, and for a delivered change the server's
 * answer (`copy`, as a document). A later change made to the document (another entry) stays as it
 * is: its own outcome settles it, and an outcome applied late or twice must not mark it synced, nor
 * write the answer to the earlier change over its words. With `copy`, the newer of the answer and a
 * copy pulled meanwhile is written, in the same write: swapping in a parked copy first and the
 * answer after left the document, for a moment, as the server had it before the change, and a
 * screen opened in that moment (or a page closed in it) showed the young person's edit undone.
 */
export async function setSyncState(collection: ReplicaCollectionName, id: string, sync: SyncState, settled: Settled = {}): Promise<void> {
  const target = await collectionOf(collection);
  const doc = await target.findOne(id).exec();
  if (!doc) return;
  await applySyncState(doc, sync, settled);
}

export interface Settled {
  /** The outbox entry whose outcome this is. */
  readonly outboxId?: string | null;
  /** A delivered change: the server's answer as a document. */
  readonly copy?: Doc | null;
  /**
   * A delivered create the server kept under the document's id, with no answer readable as a
   * document: the document is no longer only on this device (`local_only` false, in the same write).
   */
  readonly kept?: boolean;
}

async function applySyncState(doc: RxDocument<Doc>, sync: SyncState, settled: Settled): Promise<void> {
  const id = doc.primary;
  // Decided on the document as it is written, not as it was read: a pull can park a newer server
  // copy in between, and that copy is what the document must become (the chaos suite, issue 12).
  let tombstone = false;
  await doc.incrementalModify((latest) => {
    const parked = (latest.sync_server as Record<string, unknown> | null | undefined) ?? null;
    tombstone = false;
    if (sync.state === 'synced' && laterChangeWaits(latest, settled.outboxId)) return latest;
    if (sync.state === 'synced' && settled.copy) {
      const copy = settledCopy(latest, settled.copy);
      tombstone = copy === 'tombstone';
      if (copy === 'tombstone' || copy === latest) return latest; // removed below; or stays as it is
      return { ...copy, ...syncFields(sync), sync_server: null, id };
    }
    const onServer = sync.state === 'synced' && settled.kept === true && latest.local_only === true ? { local_only: false } : {};
    if (sync.state !== 'synced' || !parked) return { ...latest, ...syncFields(sync), ...onServer };
    // The change was delivered: the copy from before it is no news.
    if (parked[BASE] === true) return { ...latest, ...syncFields(sync), sync_server: null, ...onServer };
    if (parked._deleted === true) {
      tombstone = true; // the server no longer has it: removed below
      return latest;
    }
    const { _deleted: _gone, ...server } = parked;
    return { ...(server as Doc), ...syncFields(sync), sync_server: null, id };
  });
  if (tombstone) await incrementalRemoveEmptied(doc.getLatest());
}

const updatedAt = (copy: Record<string, unknown>) => String(copy.updated_at ?? '');

/** The document waits on another outbox entry than the one being settled (a change made after it). */
function laterChangeWaits(latest: Doc, settledOutboxId: string | null | undefined): boolean {
  if (!settledOutboxId || (latest.sync_state !== 'pending' && latest.sync_state !== 'failed')) return false;
  const waiting = (latest.sync_outbox_id as string | null | undefined) ?? null;
  return waiting !== null && waiting !== settledOutboxId;
}

/**
 * What a delivered change leaves: the server's answer, unless the server moved on since and a pull
 * brought that newer copy (parked while the change waited, or written over the document once it
 * was synced: an outcome applied twice). The base kept when the change was made is older than what
 * was sent, so it never wins; nor does a created document's own `updated_at` (the device's clock).
 * `latest` itself: the document stays as it is.
 */
function settledCopy(latest: Doc, delivered: Doc): Doc | 'tombstone' {
  if (latest.sync_state === 'synced' || latest.sync_state === undefined) {
    return latest.local_only !== true && updatedAt(latest) > updatedAt(delivered) ? latest : delivered;
  }
  const parked = (latest.sync_server as Record<string, unknown> | null | undefined) ?? null;
  if (!parked || parked[BASE] === true || updatedAt(parked) <= updatedAt(delivered)) return delivered;
  if (parked._deleted === true) return 'tombstone';
  const { _deleted: _gone, ...server } = parked;
  return server as Doc;
}
