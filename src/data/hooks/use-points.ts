import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import { pointsSources$, pointsSummary, type PointsSummary } from '../replica/task-overlays';
import type { PointsDoc, TaskCommentOverlayDoc } from '../replica/types';
import { useAccount } from '../session-store';
import { useLive, type Live } from './use-live';
import { useResidentDetails } from './use-resident-details';

/**
 * The young person's points from the ledger in the replica (the dashboard's counter, the review's
 * success screen, later rewards): `balance` is the ledger's sum, `pending` the points of this
 * device's reviews that are not in the ledger yet (src/data/replica/task-overlays.ts). Before the
 * ledger's first pull has brought anything, the balance is the resident's reward_points (the
 * replicated record, else the account), never a made-up 0. null: nothing is known yet.
 */
export function usePoints(): Live<PointsSummary | null> {
  const details = useResidentDetails();
  const account = useAccount();
  // The provisional account (built from the stub, no names yet) carries no real points.
  const accountPoints = account?.user.first_name && account.user.resident ? account.user.resident.reward_points : null;
  const fallback = details.data?.reward_points ?? accountPoints;
  const factory = useCallback((open: OpenReplica) => pointsSources$(open.db), []);
  const live = useLive<{ ledger: PointsDoc[]; overlays: TaskCommentOverlayDoc[] } | null>('points', factory, null, (data) => !data || data.ledger.length === 0);
  const summary = live.data ? pointsSummary(live.data.ledger, live.data.overlays, fallback) : fallback === null ? null : { balance: fallback, pending: 0 };
  return { data: summary, loading: live.loading && summary === null };
}
