/**
 * What a delivered write does to the replica (the outbox's success path).
 *
 * A create sends the optimistic document's id and the server keeps it, so the answer's row has
 * the document's own id: the pending document becomes the server's copy in place (local_only
 * false, synced, pending files moved to the server's file ids). A pull that brought the row while
 * the write was still pending parked it in `sync_server` (src/data/replication/pull.ts) and marking
 * the document synced swaps it in; a pull after that simply overwrites a synced document. Either
 * way there is one document. An update is settled the same way.
 *
 * A create the server answered under another id (settle-server-id.ts) is a write queued by an
 * older build. Applying an outcome twice changes nothing.
 */
import type { RxCollection } from 'rxdb';
import { ENTRY_KINDS } from '@/contract/entry-kind';
import type { LocalRef, OutboxResult } from '../../data/outbox/types';
import { setSyncState } from '../../data/replica/local-writes';
import { whenReplicaOpen } from '../../data/replica/replica-store';
import { SYNCED, syncFields, type SyncState } from '../../data/replica/types';
import { moduleOf, moveLocalFiles, serverDocOf, type Doc } from './server-copy';
import { settleServerId } from './settle-server-id';

/** Each entry kind's collection, and their comments. */
const ENTRY_COLLECTIONS = new Set<string>([...ENTRY_KINDS, 'comments']);

type Current = Doc & { sync_state?: string; updated_at?: string; local_only?: boolean };

export async function settleDelivered(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  if (result?.id && result.id !== local.id) {
    await settleServerId(local, result);
    return;
  }
  if (!ENTRY_COLLECTIONS.has(local.collection) || !result?.data) {
    await setSyncState(local.collection, local.id, sync);
    return;
  }
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const before = await target.findOne(local.id).exec();
  if (!before) return;
  const localDoc = before.toMutableJSON() as Doc;
  const serverDoc = serverDocOf(local, localDoc, result.data);
  await moveLocalFiles(db, moduleOf(local), localDoc, serverDoc);
  // Swaps in a copy a pull parked meanwhile (or removes the document when that copy is a tombstone).
  await setSyncState(local.collection, local.id, sync);

  const after = await target.findOne(local.id).exec();
  const current = after?.toMutableJSON() as Current | undefined;
  if (!after || current?.sync_state !== 'synced') return;
  if (!serverDoc) {
    // The server has it under this id, but its row did not read: the re-sync brings it.
    if (current.local_only === true && result.id === local.id) await after.incrementalPatch({ local_only: false });
    return;
  }
  // A created document still carries the device's clock, which says nothing against the server's:
  // the server's row replaces it. Otherwise the newer of the two (a pull may have brought a later one,
  // even between the read above and this write: decided on the document as it is written).
  await after.incrementalModify((latest) => {
    const now = latest as Current;
    if (now.sync_state !== 'synced') return latest;
    if (now.local_only !== true && String(serverDoc.updated_at) < String(now.updated_at ?? '')) return latest;
    return { ...serverDoc, ...syncFields(SYNCED), sync_server: null, id: local.id };
  });
}
