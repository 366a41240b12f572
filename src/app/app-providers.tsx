import { lazy, StrictMode, Suspense } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { useSettings } from '@/data/settings-store';
import { DEFAULT_KIDS_STYLE } from '@/data/kids-style';
import { useAccount } from '@/data/session-store';
import { useToastsWanted } from '@/components/toast-queue';
import { StyleSync } from './shell/style-sync';

// Signed in, the style comes from the replica: its hooks load with the signed-in screens, not the entry.
const SignedInStyleSync = lazy(() => import('./shell/signed-in-style-sync').then((m) => ({ default: m.SignedInStyleSync })));
// notistack loads when a toast is asked for or likely (src/components/toast-queue.ts).
const Toaster = lazy(() => import('./shell/toaster').then((m) => ({ default: m.Toaster })));

type Router = ReturnType<typeof createBrowserRouter>;

/**
 * Keeps `<html data-theme>` (the settings theme: fun, metro, none; shapes) and `<html data-kids-style>`
 * (the account's kids_app style: fun or gaming; palette and type) in step. How they combine:
 * src/app/styles/themes.css and docs/decisions.md "Themes (issue 11)".
 */
function ThemeSync() {
  const { theme } = useSettings();
  const signedIn = useAccount() !== null;
  // Nobody signed in: the default style (the login screen is nobody's). While the signed-in part
  // loads, the style main.tsx put on <html> before the first paint stays.
  return signedIn ? (
    <Suspense fallback={null}>
      <SignedInStyleSync theme={theme} />
    </Suspense>
  ) : (
    <StyleSync style={DEFAULT_KIDS_STYLE} signedIn={false} theme={theme} />
  );
}

function Toasts() {
  return useToastsWanted() ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** The real providers: the router, settings and looks, the toasts (src/app/shell/toaster.tsx). */
export function AppProviders({ router }: { router: Router }) {
  return (
    <StrictMode>
      <ThemeSync />
      <RouterProvider router={router} />
      <Toasts />
    </StrictMode>
  );
}
