import { SnackbarProvider } from 'notistack';
import { StrictMode, useEffect } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { rules } from '@/contract/rules';
import { useSettings } from '@/data/settings-store';
import { useMediaQuery } from '@/components/use-media-query';
import { Toast } from './shell/toast';

type Router = ReturnType<typeof createBrowserRouter>;

/** Keeps `<html data-theme>` in step with the chosen theme. */
function ThemeSync() {
  const { theme } = useSettings();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return null;
}

/** The real providers: toasts (one at a time, 6 s, top right on wide screens), the router, settings. */
export function AppProviders({ router }: { router: Router }) {
  const wide = useMediaQuery('(min-width: 600px)');
  return (
    <StrictMode>
      <ThemeSync />
      <SnackbarProvider
        maxSnack={1}
        autoHideDuration={rules.toastDurationMs}
        anchorOrigin={{ vertical: 'top', horizontal: wide ? 'right' : 'center' }}
        Components={{ success: Toast, error: Toast, default: Toast, info: Toast, warning: Toast }}
      >
        <RouterProvider router={router} />
      </SnackbarProvider>
    </StrictMode>
  );
}
