import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { OPENED_FROM_NOTIFICATION, OPENED_FROM_PARAM } from '@/contract/push-notice';
import { useSyncStatus } from '@/data/hooks/use-sync-status';

/** What the dashboard reads from the navigation state after a notification led nowhere. */
export interface GoneState {
  readonly gone: true;
}

/**
 * A screen opened from a notification (`?from=notification`, sw/push.ts) whose item is not in the
 * replica once it is not pulling (deleted, access taken away) goes on to the dashboard, which says
 * why, instead of showing its not-found state. Opened any other way, the not-found state stays.
 * `gone` is the screen's own verdict: its not-found state (never while it is still loading).
 */
export function useLeaveWhenGone(gone: boolean): void {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { syncing } = useSyncStatus();
  const fromNotification = params.get(OPENED_FROM_PARAM) === OPENED_FROM_NOTIFICATION;
  useEffect(() => {
    if (fromNotification && gone && !syncing) navigate('/dashboard', { replace: true, state: { gone: true } satisfies GoneState });
  }, [fromNotification, gone, syncing, navigate]);
}
