/**
 * The outbox's door into the replica: optimistic documents and their sync state.
 * A pull never overwrites a document whose `sync_state` is pending or failed; the server's copy
 * waits in `sync_server` and replaces the local one when the outbox marks it synced.
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

async function collectionOf(name: ReplicaCollectionName): Promise<RxCollection<Doc>> {
  const { db } = await whenReplicaOpen();
  return db.collections[name] as unknown as RxCollection<Doc>;
}

/** Upsert-merges an optimistic change: `patch` over the current document (or a new one). */
export async function applyLocalChange(
  collection: ReplicaCollectionName,
  id: string,
  patch: Record<string, unknown>,
  sync: SyncState,
): Promise<void> {
  const target = await collectionOf(collection);
  const { sync_server: _ignored, ...clean } = patch;
  const merge = (current: Doc): Doc => ({ ...current, ...clean, ...syncFields(sync), id });
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
 */
export async function setSyncState(collection: ReplicaCollectionName, id: string, sync: SyncState): Promise<void> {
  const target = await collectionOf(collection);
  const doc = await target.findOne(id).exec();
  if (!doc) return;
  if (sync.state === 'synced') {
    const settledOutboxId = (doc.toMutableJSON() as { sync_outbox_id?: string | null }).sync_outbox_id ?? null;
    if (settledOutboxId) recheckSettled(collection, id, settledOutboxId);
  }
  await applySyncState(doc, sync);
}

/**
 * A pull that read the document while it was still pending can write it back pending just after
 * it was marked synced (the pull's modifier keeps pending documents). The outbox entry is gone by
 * then, so nothing would ever settle it again: look once more shortly after, and settle it if it
 * still waits on the very write that was just settled.
 */
const RECHECK_AFTER_MS = [1_000, 5_000];
function recheckSettled(collection: ReplicaCollectionName, id: string, outboxId: string): void {
  for (const delay of RECHECK_AFTER_MS) {
    setTimeout(() => {
      void (async () => {
        const target = await collectionOf(collection);
        const doc = await target.findOne(id).exec();
        const current = doc?.toMutableJSON() as { sync_state?: string; sync_outbox_id?: string | null } | undefined;
        if (!doc || current?.sync_state !== 'pending' || current.sync_outbox_id !== outboxId) return;
        await applySyncState(doc, { state: 'synced', message: null, outbox_id: null });
      })().catch(() => undefined);
    }, delay);
  }
}

async function applySyncState(doc: RxDocument<Doc>, sync: SyncState): Promise<void> {
  const id = doc.primary;
  const parked = (doc.toMutableJSON().sync_server as Record<string, unknown> | null | undefined) ?? null;
  if (sync.state === 'synced' && parked) {
    if (parked._deleted === true) {
      await doc.remove();
      return;
    }
    const { _deleted: _gone, ...server } = parked;
    await doc.incrementalModify(() => ({ ...(server as Doc), ...syncFields(sync), sync_server: null, id }));
    return;
  }
  await doc.incrementalPatch({ ...syncFields(sync) });
}
