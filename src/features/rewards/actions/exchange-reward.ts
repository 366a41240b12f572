import { rewardMessages } from '@/contract/rewards';
import { newIdempotencyKey } from '@/data/outbox/outbox';
import { replicaForWrite } from '@/entries/data/replica-for-write';
import type { WriteResult } from '@/entries/data/types';
import { refused } from '@/entries/data/write-support';
import { checkAffordable, queueExchange, rewardIn } from './write-exchange';

/**
 * Swaps points for a reward: refused on the device when the reward is not in the catalogue or the
 * balance shown cannot afford it; otherwise a pending history item and the request in the outbox
 * (write-exchange.ts). The answer's `id` is the history item's (and the exchange's on the server).
 */
export async function exchangeReward(rewardId: string, now: Date = new Date()): Promise<WriteResult> {
  const open = await replicaForWrite();
  if (!open) return refused(rewardMessages.redeemFailed);
  const reward = await rewardIn(open, rewardId);
  const refusal = await checkAffordable(open, reward);
  if (refusal || !reward) return refusal ?? refused(rewardMessages.redeemFailed);
  return queueExchange(open, newIdempotencyKey(), reward, now.toISOString(), now);
}
