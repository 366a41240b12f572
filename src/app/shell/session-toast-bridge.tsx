import { useSnackbar } from 'notistack';
import { useEffect, useRef } from 'react';
import { csrfExpired } from '@/api/events';
import { messages } from '@/contract/messages';

/** SPEC §4: a 419 shows "Session expired" once; more 419s while it is on screen add nothing. */
export function SessionToastBridge() {
  const { enqueueSnackbar } = useSnackbar();
  const showing = useRef(false);
  useEffect(
    () =>
      csrfExpired.subscribe(() => {
        if (showing.current) return;
        showing.current = true;
        enqueueSnackbar(messages.sessionExpired, {
          variant: 'error',
          preventDuplicate: true,
          onExited: () => {
            showing.current = false;
          },
        });
      }),
    [enqueueSnackbar],
  );
  return null;
}
