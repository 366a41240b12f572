import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mfaLoginRequestSchema, type LoginData } from '../../../src/contract/auth';
import { chosenMessages as chosen, messages } from '../../../src/contract/messages';
import type { MfaChallenge } from '../../db/schema';
import { safeEqual } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { hashEmailCode } from '../../lib/recovery-codes';
import { clearFailures, refundAttempt, throttleKeys } from '../../lib/throttle';
import { parse } from '../../lib/validate';
import { startSession } from '../../plugins/session';
import { findChallenge } from '../../domain/mfa/challenges';
import { claimCodeAttempt, consumeRecoveryCode, consumeTotp, failedCodeAttempt } from '../../domain/mfa/methods';
import { paths } from '../../../src/contract/paths';

async function emailCodeMatches(app: FastifyInstance, challenge: MfaChallenge, code: string): Promise<boolean> {
  if (!challenge.email_code_hash || !challenge.email_code_expires_at) return false;
  if (challenge.email_code_expires_at.getTime() <= Date.now()) return false;
  const hash = hashEmailCode(app.keys.codes, challenge.id, code);
  if (!safeEqual(hash, challenge.email_code_hash)) return false;
  // Single use: only one request can clear this exact hash.
  const used = await app.db
    .updateTable('mfa_challenges')
    .set({ email_code_hash: null, email_code_expires_at: null })
    .where('id', '=', challenge.id)
    .where('email_code_hash', '=', hash)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** POST /api/auth/mfa/login: the second factor; success signs in with a new session. */
export default async function mfaLoginRoute(app: FastifyInstance) {
  app.post(paths.mfaLogin.pattern, async (request, reply) => {
    const input = parse(mfaLoginRequestSchema, request.body ?? {});
    const challenge = await findChallenge(app, request, input.two_factor_id);
    const codesKey = throttleKeys.codes(challenge.user_id);
    // Each guess is claimed before it is checked, on the person (lib/throttle.ts) and on the
    // challenge: codes sent at once are never more guesses than the limits allow.
    const attempt = await claimCodeAttempt(app, challenge.user_id);
    const claimed = await app.db
      .updateTable('mfa_challenges')
      .set({ attempts: sql`attempts + 1`, updated_at: sql`now()` })
      .where('id', '=', challenge.id)
      .where('attempts', '<', app.limits.challengeMaxAttempts)
      .returning('attempts')
      .executeTakeFirst();
    if (!claimed) {
      // Its guesses are spent (or another request just ended it): this one is not checked.
      await refundAttempt(app.db, attempt);
      await app.db.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
      throw new HttpError(429, messages.mfaSessionExpired);
    }

    let ok: boolean;
    if (input.method === 'recovery_code') {
      ok = await consumeRecoveryCode(app, challenge.tenant_id, challenge.user_id, input.recovery_code);
    } else {
      const row = await app.db
        .selectFrom('mfa_methods')
        .select(['id', 'secret_encrypted'])
        .where('tenant_id', '=', challenge.tenant_id)
        .where('user_id', '=', challenge.user_id)
        .where('method', '=', input.method)
        .where('confirmed_at', 'is not', null)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) ok = false;
      else if (input.method === 'authenticator') ok = await consumeTotp(app, row, input.code);
      else ok = await emailCodeMatches(app, challenge, input.code);
    }

    if (!ok) {
      if (claimed.attempts >= app.limits.challengeMaxAttempts) {
        await app.db.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
        await failedCodeAttempt(app, attempt).catch(() => undefined);
        throw new HttpError(429, messages.mfaSessionExpired);
      }
      await failedCodeAttempt(app, attempt);
      if (input.method === 'recovery_code') {
        throw new HttpError(422, chosen.recoveryCodeIncorrect, { recovery_code: [chosen.recoveryCodeIncorrect] });
      }
      throw new HttpError(422, messages.codeIncorrect, { code: [messages.codeIncorrect] });
    }

    await app.db.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
    await clearFailures(app.db, codesKey);
    await startSession(app, request, reply, { tenantId: challenge.tenant_id, userId: challenge.user_id, state: 'full' });
    const data: LoginData = { mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: false };
    return { success: true as const, data };
  });
}
