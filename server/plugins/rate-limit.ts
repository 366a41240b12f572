import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { HttpError } from '../lib/http-errors';
import { databaseRateLimitStore, purgeRequestCounters } from '../lib/request-counters';

/**
 * A coarse per-IP ceiling on /api/auth/*: a cheap first wall in front of the precise database
 * counters of lib/throttle.ts. Only the auth routes use it (see addAuthRateLimit). Counted in
 * memory on the embedded database (one process), in PostgreSQL otherwise (lib/request-counters.ts),
 * so that several processes keep one ceiling between them.
 */
const PURGE_EVERY_MS = 10 * 60 * 1000;

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  const shared = app.databaseKind === 'postgres';
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: databaseRateLimitStore(app.db) } : {}),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, chosen.tooManyAttempts(Math.max(1, Math.ceil(context.ttl / 60_000))), undefined, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
  if (!shared) return;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      purgeRequestCounters(app.db).catch((error: unknown) => app.log.warn({ err: error }, 'request counter purge failed'));
    }, PURGE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

/**
 * One limiter shared by every route of the scope it is added to (the /api/auth/* routes): a
 * per-route config would give each route its own counter.
 */
export function addAuthRateLimit(scope: FastifyInstance, app: FastifyInstance): void {
  scope.addHook('onRequest', app.rateLimit({ max: app.limits.authRequestsPerMinute, timeWindow: 60_000 }));
}
