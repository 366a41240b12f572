import type { FastifyRequest } from 'fastify';

/**
 * Whether a request is for the API, judged on the path the router matched, never on the raw URL:
 * the router decodes `/%61pi/auth/login` into the route `/api/auth/login`, so a check of
 * `request.url` let that request past CSRF, the session and no-store (issue 12, finding 5). An
 * unmatched request (no route) is judged on its decoded path, as the router would read it.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? decodedPath(request.url);
  return path === '/api' || path.startsWith('/api/');
}

function decodedPath(url: string): string {
  const raw = url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // malformed escapes: the router refuses the request anyway
  }
}
