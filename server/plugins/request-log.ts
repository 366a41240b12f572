import type { FastifyInstance } from 'fastify';

/**
 * What the server logs per request (issue 13, server throughput). Fastify's own two lines per request
 * ("incoming request", "request completed"), each a serialised and redacted object, cost the signed-in
 * path more than its database work; a deployment's access log belongs to the TLS proxy in front of
 * it. So at `info` and above only what someone must act on is written: errors (the error
 * handler, plugins/errors.ts) and one line for every answer of 500 or more, with the method, route,
 * status and time. LOG_LEVEL=debug (or trace) brings Fastify's request lines back for development.
 */
const REQUEST_LINES = new Set(['debug', 'trace']);

/** For Fastify's `disableRequestLogging`: true unless the level asks for every request. */
export function requestLinesOff(level: string): boolean {
  return !REQUEST_LINES.has(level);
}

export function registerRequestLog(app: FastifyInstance): void {
  if (!requestLinesOff(app.config.logLevel)) return;
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode < 500) return;
    request.log.warn(
      { method: request.method, route: request.routeOptions.url ?? null, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'answered with a server error',
    );
  });
}
