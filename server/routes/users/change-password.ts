import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { changePasswordRequestSchema, idParamsSchema } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { hashPassword } from '../../lib/passwords';
import { parse } from '../../lib/validate';
import { newSessionToken, requireAuth } from '../../plugins/session';
import { confirmCurrentPassword } from '../../domain/users/current-password';
import { paths } from '../../../src/contract/paths';

/**
 * PUT /api/v1/users/{id}/change-password (also POST with ?_method=PUT, the spec's override).
 * A wrong current password counts towards the same lock as a failed sign-in.
 */
export default async function changePasswordRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    if (id !== auth.userId) throw new HttpError(404, chosen.notFound);
    const input = parse(changePasswordRequestSchema, request.body ?? {});

    if (!(await confirmCurrentPassword(app, auth, input.current))) throw new HttpError(404, chosen.notFound);
    if (input.password === input.current) {
      throw new HttpError(422, chosen.validationFailed, { password: [chosen.passwordSameAsCurrent] });
    }

    const passwordHash = await hashPassword(input.password);
    const token = newSessionToken(request);
    await app.db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ password_hash: passwordHash, updated_at: sql`now()` }).where('id', '=', auth.userId).execute();
      // Everyone else signed in as this person (another phone, a stolen cookie) is signed out.
      await tx.deleteFrom('sessions').where('user_id', '=', auth.userId).where('id', '!=', auth.sessionId).execute();
      await tx.deleteFrom('mfa_challenges').where('user_id', '=', auth.userId).execute();
      // This browser stays signed in with a new token: a copy of its old cookie is signed out too.
      await token.write(tx, auth.sessionId);
    });
    token.send(app, reply);
    // Their event streams close now too, not at their next ping; so do this session's streams opened
    // with its old token (a copied cookie's, and this browser's own, which reconnects with the new one).
    app.notifier.endSessions({ tenantId: auth.tenantId, userId: auth.userId, exceptSessionId: auth.sessionId, renewedSessionId: auth.sessionId });
    return { success: true as const, message: chosen.passwordChanged };
  };

  app.put(paths.changePassword.pattern, handler);
  app.post(paths.changePassword.pattern, async (request, reply) => {
    const override = (request.query as Record<string, unknown> | undefined)?._method;
    if (typeof override !== 'string' || override.toUpperCase() !== 'PUT') throw new HttpError(404, chosen.notFound);
    return handler(request, reply);
  });
}
