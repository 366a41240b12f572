import { SnackbarProvider } from 'notistack';
import { StrictMode, useEffect } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { rules } from '@/contract/rules';
import { useSettings } from '@/data/settings-store';
import { useKidsStyle } from '@/data/hooks/use-kids-style';
import { forgetKidsStyle, kidsStyleAttribute, rememberKidsStyle } from '@/data/kids-style';
import { useAccount } from '@/data/session-store';
import { useMediaQuery } from '@/components/use-media-query';
import { Toast } from './shell/toast';

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * Keeps `<html data-theme>` (the settings theme: fun, metro, none; shapes) and `<html data-kids-style>`
 * (the account's kids_app style: fun or gaming; palette and type) in step. How they combine:
 * src/app/styles/themes.css and docs/decisions.md "Themes (issue 11)".
 */
function ThemeSync() {
  const { theme } = useSettings();
  const signedIn = useAccount() !== null;
  const kidsStyle = useKidsStyle();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.kidsStyle = kidsStyleAttribute(kidsStyle);
    // The browser's own bars follow the header colour of the look now showing.
    const headerColour = getComputedStyle(root).getPropertyValue('--header-bg').trim();
    if (headerColour) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', headerColour);
    if (signedIn) rememberKidsStyle(kidsStyle);
    else forgetKidsStyle();
  }, [kidsStyle, signedIn, theme]);
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
