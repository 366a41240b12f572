import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { changePasswordRequestSchema, idParamsSchema } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { assertNotLocked, recordFailure, throttleKeys, tooManyAttempts } from '../../lib/throttle';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { paths } from '../../../src/contract/paths';

/**
 * PUT /api/v1/users/{id}/change-password (also POST with ?_method=PUT, the spec's override).
 * A wrong current password counts towards the same lock as a failed sign-in.
 */
export default async function changePasswordRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest, _reply: FastifyReply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    if (id !== auth.userId) throw new HttpError(404, chosen.notFound);
    const input = parse(changePasswordRequestSchema, request.body ?? {});

    const user = await app.db
      .selectFrom('users')
      .select(['id', 'username', 'password_hash'])
      .where('id', '=', auth.userId)
      .where('tenant_id', '=', auth.tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) throw new HttpError(404, chosen.notFound);

    const accountKey = throttleKeys.account(auth.tenantId, user.username);
    await assertNotLocked(app.db, accountKey);
    if (!(await verifyPassword(user.password_hash, input.current))) {
      const limits = app.limits;
      const lock = await recordFailure(app.db, accountKey, { max: limits.accountFailures, windowMs: limits.accountWindowMs, lockMs: limits.accountLockMs });
      if (lock) throw tooManyAttempts(lock);
      throw new HttpError(422, chosen.validationFailed, { current: [chosen.currentPasswordWrong] });
    }
    if (input.password === input.current) {
      throw new HttpError(422, chosen.validationFailed, { password: [chosen.passwordSameAsCurrent] });
    }

    const passwordHash = await hashPassword(input.password);
    await app.db.transaction().execute(async (tx) => {
      await tx.updateTable('users').set({ password_hash: passwordHash, updated_at: sql`now()` }).where('id', '=', user.id).execute();
      // Everyone else signed in as this person (another phone, a stolen cookie) is signed out.
      await tx.deleteFrom('sessions').where('user_id', '=', user.id).where('id', '!=', auth.sessionId).execute();
      await tx.deleteFrom('mfa_challenges').where('user_id', '=', user.id).execute();
    });
    // Their event streams close now too, not at their next ping.
    app.notifier.endSessions({ tenantId: auth.tenantId, userId: user.id, exceptSessionId: auth.sessionId });
    return { success: true as const, message: chosen.passwordChanged };
  };

  app.put(paths.changePassword.pattern, handler);
  app.post(paths.changePassword.pattern, async (request, reply) => {
    const override = (request.query as Record<string, unknown> | undefined)?._method;
    if (typeof override !== 'string' || override.toUpperCase() !== 'PUT') throw new HttpError(404, chosen.notFound);
    return handler(request, reply);
  });
}
