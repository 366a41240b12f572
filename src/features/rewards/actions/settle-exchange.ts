/**
 * What a delivered swap does to the replica (the outbox's success path for the `points`
 * collection, wired by the composition root, src/app/start-data.ts): the history item becomes the
 * server's exchange (same id: the client id the server kept), synced, in one write. If a pull
 * already parked a newer copy (staff decided in between), that one is kept. Applying it twice
 * changes nothing. The balance keeps the cost off until the ledger's pull brings
 * its `reward_exchange` entry (src/data/replica/rewards.ts).
 */
import { rewardExchangeSchema } from '@/contract/rewards';
import type { LocalRef, OutboxResult } from '@/data/outbox/types';
import { setSyncState, type SyncState } from '@/data/replica/local-writes';
import { rewardExchangeDocOf } from '@/data/replication/endpoints';

export async function settleExchange(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  const parsed = result?.data ? rewardExchangeSchema.safeParse(result.data) : null;
  const outboxId = local.outboxId ?? null;
  if (parsed?.success && parsed.data.id === local.id) {
    // One write: the server's answer, or a newer copy a pull brought meanwhile (local-writes.ts).
    await setSyncState(local.collection, local.id, sync, { copy: { ...rewardExchangeDocOf(parsed.data), id: local.id }, outboxId });
    return;
  }
  // Delivered without a readable answer: the server has it under this id; the history's pull brings its row.
  await setSyncState(local.collection, local.id, sync, { outboxId, kept: true });
}
