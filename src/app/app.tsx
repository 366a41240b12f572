import { createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './app-providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

/**
 * Resolves once the router has loaded the first address's lazy route modules (the page, and the
 * signed-in shell), so that React's first commit is the page itself, never the loading fallback:
 * the prerendered login screen stays until then, and a signed-in screen does not shift from
 * "Loading…" to its layout (issue 13).
 */
export function whenRouterReady(): Promise<void> {
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
  return <AppProviders router={router} />;
}
