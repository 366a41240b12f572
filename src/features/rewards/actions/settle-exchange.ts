/**
 * What a delivered swap does to the replica (the outbox's success path for the `points`
 * collection, wired by the composition root, src/app/start-data.ts): the history item becomes the
 * server's exchange (same id: the client id the server kept), synced. If a pull already parked a
 * newer copy (staff decided in between), marking it synced swaps that one in and it is kept.
 * Applying it twice changes nothing. The balance keeps the cost off until the ledger's pull brings
 * its `reward_exchange` entry (src/data/replica/rewards.ts).
 */
import { rewardExchangeSchema } from '@/contract/rewards';
import type { LocalRef, OutboxResult } from '@/data/outbox/types';
import { setSyncState, type SyncState } from '@/data/replica/local-writes';
import { whenReplicaOpen } from '@/data/replica/replica-store';
import { SYNCED, syncFields, type RewardExchangeDoc } from '@/data/replica/types';
import { rewardExchangeDocOf } from '@/data/replication/endpoints';

export async function settleExchange(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  await setSyncState(local.collection, local.id, sync);
  const { db } = await whenReplicaOpen();
  const after = await db.points.findOne(local.id).exec();
  const current = after?.toJSON() as unknown as RewardExchangeDoc | undefined;
  if (!after || current?.kind !== 'exchange' || current.sync_state !== 'synced') return;
  const parsed = result?.data ? rewardExchangeSchema.safeParse(result.data) : null;
  if (!parsed?.success || parsed.data.id !== local.id) {
    if (current.local_only) await after.incrementalPatch({ local_only: false });
    return;
  }
  const server = rewardExchangeDocOf(parsed.data);
  // A pulled copy swapped in by setSyncState may be newer than the answer: keep the newer.
  if (!current.local_only && current.updated_at > parsed.data.updated_at) return;
  await after.incrementalModify((doc) => ({ ...doc, ...server, ...syncFields(SYNCED), sync_server: null, id: local.id }) as typeof doc);
}
