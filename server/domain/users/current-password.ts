import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { verifyPassword } from '../../lib/passwords';
import { claimAttempt, failedAttempt, refundAttempt, throttleKeys, tooManyAttempts } from '../../lib/throttle';
import type { SignedIn } from '../../plugins/session';

/**
 * The signed-in person gives their password again (a password change, a two-factor step-up). A
 * wrong one counts towards the same lock as a failed sign-in, so a tablet left signed in is no
 * way around the sign-in's guess limit: 422 on `current` while guesses remain, 429 once locked.
 * Returns false when the account is gone (each caller answers that its own way).
 */
export async function confirmCurrentPassword(app: FastifyInstance, auth: SignedIn, password: string): Promise<boolean> {
  const user = await app.db
    .selectFrom('users')
    .select(['username', 'password_hash'])
    .where('id', '=', auth.userId)
    .where('tenant_id', '=', auth.tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) return false;
  const limits = app.limits;
  // Claimed before it is checked (lib/throttle.ts): guesses sent at once count too.
  const attempt = await claimAttempt(app.db, throttleKeys.account(auth.tenantId, user.username), {
    max: limits.accountFailures,
    windowMs: limits.accountWindowMs,
    lockMs: limits.accountLockMs,
  });
  if (await verifyPassword(user.password_hash, password)) {
    await refundAttempt(app.db, attempt);
    return true;
  }
  const lock = await failedAttempt(app.db, attempt);
  if (lock) throw tooManyAttempts(lock);
  throw new HttpError(422, chosen.validationFailed, { current: [chosen.currentPasswordWrong] });
}
