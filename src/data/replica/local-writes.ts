/**
 * The outbox's door into the replica: optimistic documents and their sync state.
 * A pull never overwrites a document whose `sync_state` is pending or failed; the server's copy
 * waits in `sync_server` and replaces the local one when the outbox marks it synced.
 */
import type { RxCollection } from 'rxdb';
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
  | 'comments';

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
