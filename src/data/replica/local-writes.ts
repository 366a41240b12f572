/**
 * The outbox's door into the replica: optimistic documents and their sync state.
 * A pull never overwrites a document whose `sync_state` is pending or failed; the server's copy
 * waits in `sync_server` and replaces the local one when the outbox marks it synced.
 *
 * The pull decides that in its modifier, a moment before RxDB writes what it decided: a change made
 * in between would be overwritten by the older server copy (seen under load: a chosen style flipped
 * back until the next pull). So each optimistic change is remembered until its outcome settles it,
 * and `keepLocalChange` puts it back over such a write, with the server's copy parked.
 */
import type { RxCollection, RxDocument } from 'rxdb';
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

interface LocalChange {
  readonly patch: Record<string, unknown>;
  readonly sync: SyncState;
}

/** Optimistic changes still on their way, by `collection/id` (several changes to one document merge). */
const unsettled = new Map<string, LocalChange>();
const changeKey = (collection: ReplicaCollectionName, id: string) => `${collection}/${id}`;

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
  forgetLocalChange(collection, id);
  if (!parked || parked._deleted === true) {
    await doc.remove();
    return true;
  }
  const { _deleted: _gone, [BASE]: _base, ...server } = parked;
  await doc.incrementalModify(() => ({ ...(server as Doc), ...syncFields({ state: 'synced', message: null, outbox_id: null }), sync_server: null, id }));
  return true;
}

/** The outcome of the document's latest write arrived (the composition root's outcome sink says so). */
export function forgetLocalChange(collection: ReplicaCollectionName, id: string): void {
  unsettled.delete(changeKey(collection, id));
}

/**
 * A refusal is remembered like a local change until the young person acts on it: a pull that read
 * the document while it was still pending and writes after it was marked failed would otherwise
 * bring back "pending" (with a later write's outbox id that waits behind the refused one, so nothing
 * would ever settle it; the chaos suite saw it once edit conflicts made refusals common). Its
 * content is the document's own, so only the state is put back.
 */
export function holdRefusal(collection: ReplicaCollectionName, id: string, sync: SyncState): void {
  unsettled.set(changeKey(collection, id), { patch: {}, sync });
}

const carries = (doc: Record<string, unknown>, sync: SyncState) => doc.sync_state === sync.state && (doc.sync_outbox_id ?? null) === sync.outbox_id;

/** A document as a parked server copy: without RxDB's own fields and without a copy of its own. */
function asParked(doc: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(doc).filter(([field]) => !field.startsWith('_') && field !== 'sync_server'));
}

/**
 * Called with each document a pull wrote: when it no longer carries an unsettled local change (the
 * pull read the document just before the change), the change goes back on top and what the pull
 * brought waits in `sync_server` (a pulled server copy as it is, a stale pending copy's own parked one).
 */
export async function keepLocalChange(collection: ReplicaCollectionName, written: Record<string, unknown>): Promise<void> {
  const id = String(written.id);
  const key = changeKey(collection, id);
  const wanted = unsettled.get(key);
  if (!wanted) {
    // A pull that read the document while its change was pending wrote it back after the change was
    // settled: settled again now, not only by the recheck's timer (a page closed or reloaded before
    // that timer would leave it pending for good, with nothing left to settle it).
    const settled = settledLately.get(key);
    if (settled && written.sync_state === 'pending' && written.sync_outbox_id === settled) await resettle(collection, id, settled);
    return;
  }
  if (carries(written, wanted.sync)) return;
  const doc = await (await collectionOf(collection)).findOne(id).exec();
  if (!doc) return;
  await doc.incrementalModify((latest) => {
    const change = unsettled.get(key);
    if (!change || carries(latest, change.sync)) return latest;
    const parked = latest.sync_state === 'synced' ? asParked(latest) : ((latest.sync_server as Record<string, unknown> | null | undefined) ?? null);
    return { ...latest, ...change.patch, ...syncFields(change.sync), sync_server: parked, id };
  });
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
  const key = changeKey(collection, id);
  if (sync.state === 'pending') unsettled.set(key, { patch: { ...unsettled.get(key)?.patch, ...clean }, sync });
  else if (sync.state === 'failed') holdRefusal(collection, id, sync);
  else unsettled.delete(key);
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
  if (sync.state === 'synced') {
    const settledOutboxId = settled.outboxId ?? (doc.toMutableJSON() as { sync_outbox_id?: string | null }).sync_outbox_id ?? null;
    if (settledOutboxId) recheckSettled(collection, id, settledOutboxId);
  }
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

/**
 * A pull that read the document while it was still pending can write it back pending just after
 * it was marked synced (the pull's modifier keeps pending documents). The outbox entry is gone by
 * then, so nothing would ever settle it again: look once more shortly after, and settle it if it
 * still waits on the very write that was just settled.
 */
const RECHECK_AFTER_MS = [1_000, 5_000];
/** The outbox entry each document was last settled on in this page, for as long as the rechecks run. */
const settledLately = new Map<string, string>();
function recheckSettled(collection: ReplicaCollectionName, id: string, outboxId: string): void {
  const key = changeKey(collection, id);
  settledLately.set(key, outboxId);
  RECHECK_AFTER_MS.forEach((delay, index) => {
    setTimeout(() => {
      if (index === RECHECK_AFTER_MS.length - 1 && settledLately.get(key) === outboxId) settledLately.delete(key);
      void resettle(collection, id, outboxId).catch(() => undefined);
    }, delay);
  });
}

/** Marks the document synced if it still waits on `outboxId`, a write already settled. */
async function resettle(collection: ReplicaCollectionName, id: string, outboxId: string): Promise<void> {
  const target = await collectionOf(collection);
  const doc = await target.findOne(id).exec();
  const current = doc?.toMutableJSON() as { sync_state?: string; sync_outbox_id?: string | null } | undefined;
  if (!doc || current?.sync_state !== 'pending' || current.sync_outbox_id !== outboxId) return;
  await applySyncState(doc, { state: 'synced', message: null, outbox_id: null }, { outboxId });
}

async function applySyncState(doc: RxDocument<Doc>, sync: SyncState, settled: Settled): Promise<void> {
  const id = doc.primary;
  if (sync.state === 'failed') holdRefusal(doc.collection.name as ReplicaCollectionName, id, sync);
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
  if (tombstone) await doc.getLatest().incrementalRemove();
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
