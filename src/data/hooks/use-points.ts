import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import { pointsSources$, pointsSummary, type PointsSummary } from '../replica/task-overlays';
import type { PointsDoc, RewardExchangeDoc, TaskCommentOverlayDoc } from '../replica/types';
import { useAccount } from '../session-store';
import { useLive, type Live } from './use-live';
import { useResidentDetails } from './use-resident-details';

type Sources = { ledger: PointsDoc[]; overlays: TaskCommentOverlayDoc[]; exchanges: RewardExchangeDoc[] };

/**
 * The young person's points from the ledger in the replica (the dashboard's counter, the review's
 * success screen, the rewards screens): `balance` is the ledger's sum with the reward exchanges it
 * does not hold yet taken into account (an exchange queued on this device is already off it; a
 * denial whose refund is not pulled yet already back), `pending` the points of this device's
 * reviews that are not in the ledger yet, `spending` the points of this device's exchanges still
 * waiting to be sent (src/data/replica/task-overlays.ts, ./rewards.ts). Before the ledger's first
 * pull has brought anything, the balance is the resident's reward_points (the replicated record,
 * else the account), never a made-up 0. null: nothing is known yet.
 */
export function usePoints(): Live<PointsSummary | null> {
  const details = useResidentDetails();
  const account = useAccount();
  // The provisional account (built from the stub, no names yet) carries no real points.
  const accountPoints = account?.user.first_name && account.user.resident ? account.user.resident.reward_points : null;
  const fallback = details.data?.reward_points ?? accountPoints;
  const factory = useCallback((open: OpenReplica) => pointsSources$(open.db), []);
  const live = useLive<Sources | null>('points', factory, null, (data) => !data || data.ledger.length === 0);
  const summary = live.data
    ? pointsSummary(live.data.ledger, live.data.overlays, fallback, live.data.exchanges)
    : fallback === null
      ? null
      : { balance: fallback, pending: 0, spending: 0 };
  return { data: summary, loading: live.loading && summary === null };
}
