import type { FastifyInstance } from 'fastify';
import { setCsrfCookie } from '../../plugins/csrf';
import { ensureSession } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/** GET /api/auth/csrf-cookie: a (guest) session and a fresh XSRF-TOKEN bound to it. */
export default async function csrfCookieRoute(app: FastifyInstance) {
  app.get(paths.csrfCookie.pattern, async (request, reply) => {
    const hadSession = request.session !== null;
    const session = await ensureSession(app, request, reply);
    // A new session already got its token; an existing one gets a fresh token here.
    if (hadSession) setCsrfCookie(app, request, reply, session.tokenHash);
    return reply.code(204).send();
  });
}
