import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { endSession } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/**
 * POST /api/auth/logout: deletes the session server-side. Succeeds without a signed-in session
 * too, so a client whose session already expired can always finish signing out.
 */
export default async function logoutRoute(app: FastifyInstance) {
  app.post(paths.logout.pattern, async (request, reply) => {
    await endSession(app, request, reply);
    return { success: true as const, message: chosen.loggedOut };
  });
}
