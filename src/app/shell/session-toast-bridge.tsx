import { useEffect, useRef } from 'react';
import { csrfExpired } from '@/api/events';
import { messages } from '@/contract/messages';
import { holdToasts, releaseToasts, SESSION_TOAST_HOLD_MS } from '@/components/toast-hold';
import { enqueueToast } from '@/components/toast-queue';

/**
 * SPEC §4: a 419 shows "Session expired" once; more 419s while it is on screen add nothing. It holds
 * the screen for SESSION_TOAST_HOLD_MS, so the error toast of the request that got the 419 (asked for
 * in the same moment) waits and then replaces it, instead of hiding it at once.
 */
export function SessionToastBridge() {
  const showing = useRef(false);
  useEffect(
    () =>
      csrfExpired.subscribe(() => {
        if (showing.current) return;
        showing.current = true;
        holdToasts(SESSION_TOAST_HOLD_MS);
        enqueueToast(messages.sessionExpired, {
          variant: 'error',
          preventDuplicate: true,
          // Dismissed before the hold ended: the person has read it, what waits may show.
          onClose: () => releaseToasts(),
          onExited: () => {
            showing.current = false;
          },
        });
      }),
    [],
  );
  return null;
}
