import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { requirePutOverride } from '../../domain/entries/writes';
import { createExchange, decideExchange } from '../../domain/rewards/exchanges';
import { createReward, updateReward, withdrawReward } from '../../domain/rewards/manage';

/**
 * Rewards, writes (registered in app.ts's form scope: JSON, multipart or url-encoded):
 * - POST /v1/projects/residents/{id}/rewards/{rewardId}/exchange (SPEC §7; 201);
 * - staff additions (docs/api.md): POST /v1/homes/{id}/rewards (201), POST /v1/rewards/{id}
 *   ?_method=PUT, DELETE /v1/rewards/{id}, POST /v1/reward-exchanges/{id}/approve and .../deny.
 * All idempotent with Idempotency-Key; the rules are in domain/rewards/.
 */
const exchangeParamsSchema = z.object({ id: z.uuid(), rewardId: z.uuid() });

export default async function rewardWriteRoutes(app: FastifyInstance) {
  const config = { idempotent: true };

  app.post(paths.rewardExchange.pattern, { config }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id, rewardId } = parse(exchangeParamsSchema, request.params);
    const data = await createExchange(app, auth, id, rewardId.toLowerCase(), request);
    return reply.code(201).send({ success: true as const, data });
  });

  app.post(paths.homeRewards.pattern, { config }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const data = await createReward(app, auth, id, request);
    return reply.code(201).send({ success: true as const, data });
  });

  app.post(paths.reward.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    requirePutOverride(request);
    return { success: true as const, data: await updateReward(app, auth, id, request) };
  });

  app.delete(paths.reward.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await withdrawReward(app, auth, id) };
  });

  app.post(paths.rewardExchangeApprove.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await decideExchange(app, auth, id, 'approved', request) };
  });

  app.post(paths.rewardExchangeDeny.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await decideExchange(app, auth, id, 'denied', request) };
  });
}
