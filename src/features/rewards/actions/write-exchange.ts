/**
 * The young person's swaps of points for a reward (issue 10), through the outbox: an optimistic
 * history item (`points` kind `exchange`, pending, `points_adjustment` -cost) and
 * POST /v1/projects/residents/{id}/rewards/{rewardId}/exchange with JSON `{ id }`. The item's id is
 * the exchange's id on the server (the client id), so a pull never shows it twice; the write's
 * Idempotency-Key is new for every attempt, because the server stores a refusal (422) under its key
 * and would answer a repeat with it (docs/api.md): "Try again" keeps the id and takes a new key.
 *
 * Refused on the device, before anything is queued, when the balance shown cannot afford it (or the
 * reward is not in the catalogue any more): SPEC §8's message with the reason as a field error.
 * Delivered: settle-exchange.ts (through the composition root). Refused by the server (422): the
 * outbox marks the item failed with the server's message (SPEC §8's text), nothing taken.
 */
import { paths } from '@/contract/paths';
import { rewardMessages, type RewardExchange } from '@/contract/rewards';
import { enqueueWrite, newIdempotencyKey } from '@/data/outbox/outbox';
import { applyLocalChange } from '@/data/replica/local-writes';
import { pointsNow } from '@/data/replica/points-now';
import type { OpenReplica } from '@/data/replica/replica-store';
import { rewardOf } from '@/data/replica/rewards';
import type { LookupDoc, RewardDoc, RewardExchangeDoc } from '@/data/replica/types';
import { isOnline, refused } from '@/entries/data/write-support';
import type { WriteResult } from '@/entries/data/types';

/** What every swap queues with: its topics and its SPEC §8 failure text. */
const TOPICS = ['reward_history', 'points', 'resident'] as const;

export async function rewardIn(open: OpenReplica, rewardId: string): Promise<RewardDoc | null> {
  const doc = (await open.db.lookups.findOne(rewardId).exec())?.toJSON() as unknown as LookupDoc | undefined;
  return doc?.kind === 'reward' ? rewardOf(doc) : null;
}

export async function exchangeIn(open: OpenReplica, id: string): Promise<RewardExchangeDoc | null> {
  const doc = (await open.db.points.findOne(id).exec())?.toJSON() as unknown as RewardExchangeDoc | undefined;
  return doc?.kind === 'exchange' ? doc : null;
}

/** The reward is in the catalogue and the balance shown covers it; else the refusal to show. */
export async function checkAffordable(open: OpenReplica, reward: RewardDoc | null): Promise<WriteResult | null> {
  if (!reward) return refused(rewardMessages.redeemFailed, { reward_id: [rewardMessages.unavailable] });
  const points = await pointsNow(open);
  if (!points || points.balance < reward.points) return refused(rewardMessages.redeemFailed, { points: [rewardMessages.notEnoughPoints] });
  return null;
}

/**
 * Writes the history item as it should be sent (pending, -cost, the reward as the catalogue has
 * it now) and queues the request under a new Idempotency-Key.
 */
export async function queueExchange(open: OpenReplica, id: string, reward: RewardDoc, createdAt: string, now: Date): Promise<WriteResult> {
  const residentId = open.identity.residentId;
  if (!residentId) return refused(rewardMessages.redeemFailed);
  const outboxId = newIdempotencyKey();
  const item: Omit<RewardExchangeDoc, 'sync_state' | 'sync_message' | 'sync_outbox_id'> & Omit<RewardExchange, 'deleted_at'> = {
    id,
    kind: 'exchange',
    sort_key: createdAt,
    local_only: true,
    updated_at: now.toISOString(),
    created_at: createdAt,
    resident_id: residentId,
    reward_id: reward.id,
    reward: { id: reward.id, name: reward.name, image: reward.image },
    points: reward.points,
    points_adjustment: -reward.points,
    refunded_points: 0,
    status: 'pending',
    note: null,
    decided_by: null,
    decided_at: null,
  };
  await applyLocalChange('points', id, item, { state: 'pending', message: null, outbox_id: outboxId });
  try {
    await enqueueWrite({
      method: 'POST',
      path: paths.rewardExchange.build(residentId, reward.id),
      json: { id },
      idempotencyKey: outboxId,
      local: { collection: 'points', id },
      label: 'Reward',
      topics: TOPICS,
      failureMessage: rewardMessages.redeemFailed,
    });
  } catch {
    await applyLocalChange('points', id, {}, { state: 'failed', message: rewardMessages.redeemFailed, outbox_id: null }).catch(() => undefined);
    return refused(rewardMessages.redeemFailed);
  }
  return { ok: true, id, queuedOffline: !isOnline() };
}
