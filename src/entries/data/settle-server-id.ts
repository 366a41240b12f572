/**
 * A create delivered under an id the server made itself: a write queued by an older build, which
 * did not send its id (an outbox survives an app update), or a server that does not keep ids.
 *
 * The optimistic document (its id the write's Idempotency-Key) is swapped for the server's copy:
 * the row from the answer when it reads as the contract says, else the local text under the
 * server's id (the re-sync brings the rest). Pending files move to the server's file ids. The
 * optimistic document leaves emptied: still pending when removed, it is never the sweep's to blank,
 * and its words would outlive the entry's deletion.
 *
 * Idempotent: applied twice (a replay after a lost answer gets the same answer thanks to the
 * Idempotency-Key; an outcome applied again after a crash), the second run finds no local
 * document and changes nothing; a pull that brought the server's copy first is kept as it is.
 */
import type { RxCollection } from 'rxdb';
import type { LocalRef, OutboxResult } from '../../data/outbox/types';
import { removeEmptied } from '../../data/replica/remove-emptied';
import { whenReplicaOpen } from '../../data/replica/replica-store';
import { SYNCED, syncFields } from '../../data/replica/types';
import { moduleOf, moveLocalFiles, serverDocOf, type Doc } from './server-copy';

export async function settleServerId(local: LocalRef, result: OutboxResult): Promise<void> {
  const serverId = result.id;
  if (!serverId || serverId === local.id) return;
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const optimistic = await target.findOne(local.id).exec();
  if (!optimistic) return; // already settled (or discarded): nothing to do, never a second copy
  const localDoc = optimistic.toMutableJSON() as Doc;
  const existing = await target.findOne(serverId).exec();
  let serverDoc: Doc | null = existing ? (existing.toMutableJSON() as Doc) : null;
  if (!existing) {
    const fromAnswer = serverDocOf(local, localDoc, result.data);
    // Without a readable row: the local text under the server's id; any pull replaces it.
    const { sync_server: _parked, ...rest } = localDoc;
    serverDoc = fromAnswer ?? { ...rest, id: serverId, local_only: false };
    await target.upsert({ ...serverDoc, ...syncFields(SYNCED), sync_server: null, id: serverId });
  }
  await moveLocalFiles(db, moduleOf(local), localDoc, serverDoc);
  await removeEmptied(optimistic);
}
