import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mfaEnableRequestSchema, type MfaEnableData } from '../../../src/contract/auth';
import { chosenMessages as chosen, messages } from '../../../src/contract/messages';
import { encrypt, safeEqual } from '../../lib/crypto';
import { HttpError } from '../../lib/http-errors';
import { hashEmailCode } from '../../lib/recovery-codes';
import { assertNotLocked, throttleKeys } from '../../lib/throttle';
import { numericCode } from '../../lib/tokens';
import { newTotpSecret, qrDataUrl, totpUri } from '../../lib/totp';
import { parse } from '../../lib/validate';
import { requireAuth, startSession } from '../../plugins/session';
import { consumeTotp, firstRecoveryCodes, recordCodeFailure } from '../../domain/mfa/methods';
import { stepUp, tellOtherAddresses } from '../../domain/mfa/step-up';
import { paths } from '../../../src/contract/paths';

const wrongCode = () => new HttpError(422, messages.codeIncorrect, { code: [messages.codeIncorrect] });

/**
 * POST /api/auth/mfa/enable. Without a code it starts a method (a new secret, or an emailed code);
 * with a code it confirms it. Allowed for a session that still has to set up two-factor.
 */
export default async function mfaEnableRoute(app: FastifyInstance) {
  app.post(paths.mfaEnable.pattern, async (request, reply) => {
    const auth = requireAuth(request, { allowSetup: true });
    const input = parse(mfaEnableRequestSchema, request.body ?? {});
    await assertNotLocked(app.db, throttleKeys.codes(auth.userId));

    const existing = await app.db
      .selectFrom('mfa_methods')
      .selectAll()
      .where('tenant_id', '=', auth.tenantId)
      .where('user_id', '=', auth.userId)
      .where('method', '=', input.method)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (existing?.confirmed_at) throw new HttpError(422, chosen.mfaAlreadyEnabled);

    const upsertPending = (values: {
      secret_encrypted: string | null;
      email: string | null;
      pending_code_hash: string | null;
      pending_code_expires_at: Date | null;
    }) =>
      app.db
        .insertInto('mfa_methods')
        .values({ tenant_id: auth.tenantId, user_id: auth.userId, method: input.method, ...values })
        .onConflict((oc) =>
          oc.columns(['user_id', 'method']).doUpdateSet({
            ...values,
            confirmed_at: null,
            last_used_step: null,
            deleted_at: null,
            updated_at: sql`now()`,
          }),
        )
        .execute();

    if (input.code === undefined) {
      if (auth.state !== 'mfa_setup') await stepUp(app, auth, input.current);
      if (input.method === 'authenticator') {
        const secret = newTotpSecret();
        await upsertPending({ secret_encrypted: encrypt(app.keys.secrets, secret), email: null, pending_code_hash: null, pending_code_expires_at: null });
        const who = await app.db
          .selectFrom('users')
          .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
          .select(['users.username', 'tenants.slug'])
          .where('users.id', '=', auth.userId)
          .where('users.tenant_id', '=', auth.tenantId)
          .executeTakeFirstOrThrow();
        const otpauthUrl = totpUri(secret, app.config.productName, `${who.slug}:${who.username}`);
        const data: MfaEnableData = { method: 'authenticator', confirmed: false, secret, otpauth_url: otpauthUrl, qr_code: await qrDataUrl(otpauthUrl) };
        return { success: true as const, data };
      }
      const code = numericCode();
      const scope = `enable:${auth.userId}:${input.email.toLowerCase()}`;
      await upsertPending({
        secret_encrypted: null,
        email: input.email,
        pending_code_hash: hashEmailCode(app.keys.codes, scope, code),
        pending_code_expires_at: new Date(Date.now() + app.limits.emailCodeMs),
      });
      const minutes = Math.round(app.limits.emailCodeMs / 60_000);
      await app.mailer.send({
        to: input.email,
        subject: `Your ${app.config.productName} code`,
        text: `Your ${app.config.productName} code is ${code}.\n\nType it in to turn on sign-in codes by email. It works once, for ${minutes} minutes.`,
      });
      const data: MfaEnableData = { method: 'email', confirmed: false };
      return { success: true as const, message: chosen.mfaCodeSent, data };
    }

    if (!existing) throw new HttpError(422, chosen.mfaSetupNotStarted, { code: [chosen.mfaSetupNotStarted] });
    let confirmed = false;
    if (input.method === 'authenticator') {
      confirmed = await consumeTotp(app, existing, input.code, true);
    } else {
      const scope = `enable:${auth.userId}:${input.email.toLowerCase()}`;
      const hash = hashEmailCode(app.keys.codes, scope, input.code);
      const live =
        existing.pending_code_hash !== null &&
        existing.pending_code_expires_at !== null &&
        existing.pending_code_expires_at.getTime() > Date.now() &&
        safeEqual(hash, existing.pending_code_hash);
      if (live) {
        const done = await app.db
          .updateTable('mfa_methods')
          .set({ confirmed_at: sql`now()`, pending_code_hash: null, pending_code_expires_at: null, updated_at: sql`now()` })
          .where('id', '=', existing.id)
          .where('pending_code_hash', '=', hash)
          .executeTakeFirst();
        confirmed = done.numUpdatedRows > 0n;
      }
    }
    if (!confirmed) {
      await recordCodeFailure(app, auth.userId);
      throw wrongCode();
    }

    const recoveryCodes = await firstRecoveryCodes(app, auth.tenantId, auth.userId);
    await tellOtherAddresses(app, auth, input.method, input.method === 'email' ? input.email : null);
    // Two-factor is now on: a restricted set-up session becomes a full one, with a new token.
    if (auth.state === 'mfa_setup') await startSession(app, request, reply, { tenantId: auth.tenantId, userId: auth.userId, state: 'full' });
    const data: MfaEnableData = { method: input.method, confirmed: true, ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) };
    return { success: true as const, message: chosen.mfaEnabled, data };
  });
}
