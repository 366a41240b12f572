import type { FastifyInstance } from 'fastify';
import { pushUnsubscribeRequestSchema } from '../../../src/contract/push';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/**
 * POST /api/v1/notifications/push/unsubscribe {endpoint}: removes the signed-in person's
 * subscription for that endpoint (SPEC §4: logout removes it). Succeeds when there was none, so a
 * repeated sign-out never fails; another person's row is never touched.
 */
export default async function pushUnsubscribeRoute(app: FastifyInstance) {
  app.post(paths.pushUnsubscribe.pattern, { config: { idempotent: true } }, async (request) => {
    const auth = requireAuth(request);
    const { endpoint } = parse(pushUnsubscribeRequestSchema, request.body ?? {});
    const result = await app.db
      .deleteFrom('push_subscriptions')
      .where('tenant_id', '=', auth.tenantId)
      .where('user_id', '=', auth.userId)
      .where('endpoint', '=', endpoint)
      .executeTakeFirst();
    return { success: true as const, data: { removed: Number(result.numDeletedRows) > 0 } };
  });
}
