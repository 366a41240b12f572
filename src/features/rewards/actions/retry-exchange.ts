import { rewardMessages } from '@/contract/rewards';
import { withdrawUnsentWrite } from '@/data/outbox/outbox';
import { replicaForWrite } from '@/entries/data/replica-for-write';
import type { WriteResult } from '@/entries/data/types';
import { refused } from '@/entries/data/write-support';
import { rewardTexts } from '../reward-texts';
import { checkAffordable, exchangeIn, queueExchange, rewardIn } from './write-exchange';

/**
 * "Try again" on a refused (or not sent) swap: the same history item id, a NEW Idempotency-Key
 * (the server answers a repeated key with the refusal it stored), the reward's cost as it is now,
 * and the same checks as a new swap. The refused request is taken out of the outbox first.
 */
export async function retryExchange(id: string, now: Date = new Date()): Promise<WriteResult> {
  const open = await replicaForWrite();
  if (!open) return refused(rewardMessages.redeemFailed);
  const item = await exchangeIn(open, id);
  if (!item || !item.local_only) return refused(rewardMessages.redeemFailed);
  if (item.sync_state !== 'failed') return refused(rewardTexts.stillSending);
  // A refused write is always withdrawable; one the outbox no longer holds has nothing to withdraw.
  if (item.sync_outbox_id) await withdrawUnsentWrite(item.sync_outbox_id);
  const reward = await rewardIn(open, item.reward_id);
  const refusal = await checkAffordable(open, reward);
  if (refusal || !reward) return refusal ?? refused(rewardMessages.redeemFailed);
  return queueExchange(open, id, reward, now.toISOString(), now);
}
