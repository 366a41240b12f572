import { SnackbarProvider, useSnackbar } from 'notistack';
import { useEffect } from 'react';
import { rules } from '@/contract/rules';
import { connectToasts } from '@/components/toast-queue';
import { useMediaQuery } from '@/components/use-media-query';
import { Toast } from './toast';

/** Hands notistack's enqueue to the toast queue (what waited shows now). */
function Connect() {
  const { enqueueSnackbar } = useSnackbar();
  useEffect(() => connectToasts((message, options) => void enqueueSnackbar(message, options)), [enqueueSnackbar]);
  return null;
}

/**
 * The toast area: one toast at a time, 6 s, top right on wide screens (SPEC §2, §4, §9). Loaded on
 * demand by app-providers.tsx (src/components/toast-queue.ts says when).
 */
export function Toaster() {
  const wide = useMediaQuery('(min-width: 600px)');
  return (
    <SnackbarProvider
      maxSnack={1}
      autoHideDuration={rules.toastDurationMs}
      anchorOrigin={{ vertical: 'top', horizontal: wide ? 'right' : 'center' }}
      Components={{ success: Toast, error: Toast, default: Toast, info: Toast, warning: Toast }}
    >
      <Connect />
    </SnackbarProvider>
  );
}
