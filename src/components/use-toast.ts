import { useSnackbar } from 'notistack';
import { useMemo } from 'react';
import { showToast } from './toast-hold';

/**
 * SPEC §4 toasts: success and error. A new one replaces the one on screen (maxSnack 1), except
 * that "Session expired" stays readable for a moment first (./toast-hold.ts).
 */
export function useToast(): { success: (message: string) => void; error: (message: string) => void } {
  const { enqueueSnackbar } = useSnackbar();
  return useMemo(
    () => ({
      success: (message: string) => showToast(() => void enqueueSnackbar(message, { variant: 'success' })),
      error: (message: string) => showToast(() => void enqueueSnackbar(message, { variant: 'error' })),
    }),
    [enqueueSnackbar],
  );
}
