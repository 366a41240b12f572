/**
 * What a delivered write does to the replica (the outbox's success path).
 *
 * A create sends the optimistic document's id and the server keeps it, so the answer's row has
 * the document's own id: the pending document becomes the server's copy in place (local_only
 * false, synced, pending files moved to the server's file ids). A pull that brought the row while
 * the write was still pending parked it in `sync_server` (src/data/replication/pull.ts) and marking
 * the document synced takes the newer of it and the answer, in one write; a pull after that simply
 * overwrites a synced document. Either way there is one document. An update is settled the same way.
 *
 * A create the server answered under another id (settle-server-id.ts) is a write queued by an
 * older build. Applying an outcome twice changes nothing.
 */
import type { RxCollection } from 'rxdb';
import { ENTRY_KINDS } from '@/contract/entry-kind';
import type { LocalRef, OutboxResult } from '../../data/outbox/types';
import { setSyncState } from '../../data/replica/local-writes';
import { whenReplicaOpen } from '../../data/replica/replica-store';
import type { SyncState } from '../../data/replica/types';
import { moduleOf, moveLocalFiles, serverDocOf, type Doc } from './server-copy';
import { settleServerId } from './settle-server-id';

/** Each entry kind's collection, and their comments. */
const ENTRY_COLLECTIONS = new Set<string>([...ENTRY_KINDS, 'comments']);

export async function settleDelivered(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  if (result?.id && result.id !== local.id) {
    await settleServerId(local, result);
    return;
  }
  if (!ENTRY_COLLECTIONS.has(local.collection) || !result?.data) {
    // With the outcome's entry: a change made since (another entry) stays pending.
    await setSyncState(local.collection, local.id, sync, { outboxId: local.outboxId ?? null });
    return;
  }
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const before = await target.findOne(local.id).exec();
  if (!before) return;
  const localDoc = before.toMutableJSON() as Doc;
  const serverDoc = serverDocOf(local, localDoc, result.data);
  // The outcome's own entry (an outcome applied late or twice finds a later change on the document).
  const outboxId = local.outboxId ?? (localDoc.sync_outbox_id as string | null | undefined) ?? null;
  await moveLocalFiles(db, moduleOf(local), localDoc, serverDoc);
  if (serverDoc) {
    // One write: the server's answer, or a newer copy a pull brought meanwhile (local-writes.ts).
    await setSyncState(local.collection, local.id, sync, { copy: serverDoc, outboxId });
    return;
  }
  // Swaps in a copy a pull parked meanwhile (or removes the document when that copy is a tombstone).
  // The server has it under this id, but its row did not read: the re-sync brings it.
  await setSyncState(local.collection, local.id, sync, { outboxId, kept: result.id === local.id });
}
