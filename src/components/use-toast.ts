import { useSnackbar } from 'notistack';
import { useMemo } from 'react';

/** SPEC §4 toasts: success and error. A new one replaces the one on screen (maxSnack 1). */
export function useToast(): { success: (message: string) => void; error: (message: string) => void } {
  const { enqueueSnackbar } = useSnackbar();
  return useMemo(
    () => ({
      success: (message: string) => void enqueueSnackbar(message, { variant: 'success' }),
      error: (message: string) => void enqueueSnackbar(message, { variant: 'error' }),
    }),
    [enqueueSnackbar],
  );
}
