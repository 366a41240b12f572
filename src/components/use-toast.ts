import { useMemo } from 'react';
import { enqueueToast } from './toast-queue';
import { showToast } from './toast-hold';

/**
 * SPEC §4 toasts: success and error. A new one replaces the one on screen (maxSnack 1), except
 * that "Session expired" stays readable for a moment first (./toast-hold.ts). notistack shows
 * them, loaded on demand (./toast-queue.ts).
 */
export function useToast(): { success: (message: string) => void; error: (message: string) => void } {
  return useMemo(
    () => ({
      success: (message: string) => showToast(() => enqueueToast(message, { variant: 'success' })),
      error: (message: string) => showToast(() => enqueueToast(message, { variant: 'error' })),
    }),
    [],
  );
}
