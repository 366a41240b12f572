import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mfaSendCodeRequestSchema } from '../../../src/contract/auth';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { hashEmailCode } from '../../lib/recovery-codes';
import { tooManyAttempts } from '../../lib/throttle';
import { numericCode } from '../../lib/tokens';
import { parse } from '../../lib/validate';
import { findChallenge } from '../../domain/mfa/challenges';
import { paths } from '../../../src/contract/paths';

/** POST /api/auth/mfa/send-code: emails a sign-in code; a new one replaces the previous one. */
export default async function mfaSendCodeRoute(app: FastifyInstance) {
  app.post(paths.mfaSendCode.pattern, async (request) => {
    const input = parse(mfaSendCodeRequestSchema, request.body ?? {});
    const challenge = await findChallenge(app, request, input.two_factor_id);
    const method = await app.db
      .selectFrom('mfa_methods')
      .select('email')
      .where('tenant_id', '=', challenge.tenant_id)
      .where('user_id', '=', challenge.user_id)
      .where('method', '=', 'email')
      .where('confirmed_at', 'is not', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!method?.email) throw new HttpError(422, chosen.mfaEmailNotSetUp);
    if (challenge.email_sends >= app.limits.emailSendsPerChallenge) throw tooManyAttempts(challenge.expires_at);

    const code = numericCode();
    await app.db
      .updateTable('mfa_challenges')
      .set({
        email_code_hash: hashEmailCode(app.keys.codes, challenge.id, code),
        email_code_expires_at: new Date(Date.now() + app.limits.emailCodeMs),
        email_sends: sql`email_sends + 1`,
        updated_at: sql`now()`,
      })
      .where('id', '=', challenge.id)
      .execute();
    const minutes = Math.round(app.limits.emailCodeMs / 60_000);
    await app.mailer.send({
      to: method.email,
      subject: `Your ${app.config.productName} sign-in code`,
      text: `Your ${app.config.productName} sign-in code is ${code}.\n\nIt works once, for ${minutes} minutes. If you did not try to sign in, please tell a member of staff.`,
    });
    return { success: true as const, message: chosen.mfaCodeSent };
  });
}
