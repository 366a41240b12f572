import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { OPENED_FROM_NOTIFICATION, OPENED_FROM_PARAM } from '@/contract/push-notice';
import { useStoreSelector } from '@/data/create-store';
import { replicationStatus } from '@/data/replication/sync-status';

/** What the dashboard reads from the navigation state after a notification led nowhere. */
export interface GoneState {
  readonly gone: true;
}

/**
 * A screen opened from a notification (`?from=notification`, sw/push.ts) whose item is not in the
 * replica once this start's first pulls are over (deleted, access taken away) goes on to the
 * dashboard, which says why, instead of showing its not-found state. "Over" means the pulls have
 * started and each first pull has finished or failed (offline fails at once): a warm start lets the
 * first screen read the replica before its pulls start, and the item a notification names is often
 * the very one they bring. Opened any other way, the not-found state stays.
 * `gone` is the screen's own verdict: its not-found state (never while it is still loading).
 */
export function useLeaveWhenGone(gone: boolean): void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Only this one answer: the status changes with every request of every replication.
  const pullsOver = useStoreSelector(replicationStatus, (s) => s.pulls.size > 0 && s.firstPullPending.size === 0 && !s.syncing);
  const fromNotification = params.get(OPENED_FROM_PARAM) === OPENED_FROM_NOTIFICATION;
  useEffect(() => {
    if (fromNotification && gone && pullsOver) navigate('/dashboard', { replace: true, state: { gone: true } satisfies GoneState });
  }, [fromNotification, gone, pullsOver, navigate]);
}
