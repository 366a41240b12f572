import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { pushMessages, pushSubscribeRequestSchema } from '../../../src/contract/push';
import { pushEndpointProblem } from '../../lib/push-endpoints';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/**
 * POST /api/v1/notifications/push/subscribe {user_id, subscription}: stores the browser's push
 * subscription for the signed-in person (user_id must be theirs, else 403). One row per endpoint:
 * the same browser subscribing again, or after another person signed in on it, replaces the row.
 * The endpoint must be https on one of the allowed push services (PUSH_SERVICE_HOSTS,
 * lib/push-endpoints.ts), never an address inside the network: else 422 `subscription.endpoint`.
 */
export default async function pushSubscribeRoute(app: FastifyInstance) {
  app.post(paths.pushSubscribe.pattern, { config: { idempotent: true } }, async (request) => {
    const auth = requireAuth(request);
    const input = parse(pushSubscribeRequestSchema, request.body ?? {});
    if (input.user_id !== auth.userId) throw new HttpError(403, chosen.forbidden);
    const { endpoint, keys } = input.subscription;
    const problem = pushEndpointProblem(endpoint, app.config.pushServiceHosts);
    if (problem) {
      request.log.info({ push_endpoint_refused: problem }, 'push: subscription refused');
      throw new HttpError(422, chosen.validationFailed, { 'subscription.endpoint': [pushMessages.endpointNotAllowed] });
    }
    await app.db
      .insertInto('push_subscriptions')
      .values({ tenant_id: auth.tenantId, user_id: auth.userId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({ tenant_id: auth.tenantId, user_id: auth.userId, p256dh: keys.p256dh, auth: keys.auth, updated_at: sql`now()` }),
      )
      .execute();
    return { success: true as const, data: { endpoint } };
  });
}
