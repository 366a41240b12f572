import { createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './app-providers';
import { setNavigationDestination } from './lazy-page';
import { routes } from './routes';

let router: ReturnType<typeof createBrowserRouter> | null = null;

/**
 * Made on first use, not while the entry's modules evaluate: its first navigation (matching, the
 * route modules' loads and their preload links) is then a task of its own (issue 13: no long task
 * at start; src/main.tsx yields before it).
 */
function theRouter(): ReturnType<typeof createBrowserRouter> {
  if (router) return router;
  const made = createBrowserRouter(routes);
  setNavigationDestination(() => {
    const going = made.state.navigation.location;
    return going ? `${going.pathname}${going.search}${going.hash}` : null;
  });
  return (router = made);
}

/**
 * Resolves once the router has loaded the first address's lazy route modules (the page, and the
 * signed-in shell), so that React's first commit is the page itself, never the loading fallback:
 * the prerendered login screen stays until then, and a signed-in screen does not shift from
 * "Loading…" to its layout (issue 13).
 */
export function whenRouterReady(): Promise<void> {
  const router = theRouter();
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

export function App() {
  return <AppProviders router={theRouter()} />;
}
