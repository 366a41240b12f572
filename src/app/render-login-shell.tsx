import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { routes } from './routes';

/**
 * The login screen as the app renders it at `/` for nobody signed in (no app config yet, default
 * settings): the real routes, layouts and components, rendered to HTML at build time by
 * scripts/prerender-login.ts into index.html, so the first paint does not wait for JavaScript.
 * React replaces it at its first commit (src/app/shell/takeover.ts keeps what was typed). No
 * hydration data: nothing inline for the CSP to refuse.
 */
export async function renderLoginShell(): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`the login route answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
}
