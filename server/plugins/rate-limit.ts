import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { HttpError } from '../lib/http-errors';

/**
 * A coarse per-IP ceiling on /api/auth/*, in memory: a cheap first wall in front of the precise
 * database counters of lib/throttle.ts. Only the auth routes use it (see addAuthRateLimit).
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, chosen.tooManyAttempts(Math.max(1, Math.ceil(context.ttl / 60_000))), undefined, {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  });
}

/**
 * One limiter shared by every route of the scope it is added to (the /api/auth/* routes): a
 * per-route config would give each route its own counter.
 */
export function addAuthRateLimit(scope: FastifyInstance, app: FastifyInstance): void {
  scope.addHook('onRequest', app.rateLimit({ max: app.limits.authRequestsPerMinute, timeWindow: 60_000 }));
}
