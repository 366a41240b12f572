import type { FastifyInstance } from 'fastify';
import { loginRequestSchema, type LoginData } from '../../../src/contract/auth';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import { verifyPassword } from '../../lib/passwords';
import { claimAttempt, clearFailures, failedAttempt, refundAttempt, throttleKeys, tooManyAttempts, type Attempt } from '../../lib/throttle';
import { parse } from '../../lib/validate';
import { ensureSession, startSession } from '../../plugins/session';
import { confirmedMethods } from '../../domain/mfa/methods';
import { createChallenge } from '../../domain/mfa/challenges';
import { paths } from '../../../src/contract/paths';

/**
 * POST /api/auth/login. Wrong credentials answer 422 (not 401, which the PWA reads as "session
 * expired") with one message that does not tell which field was wrong.
 */
export default async function loginRoute(app: FastifyInstance) {
  app.post(paths.login.pattern, async (request, reply) => {
    const input = parse(loginRequestSchema, request.body ?? {});
    const limits = app.limits;
    // The guess is claimed before it is checked (lib/throttle.ts): guesses sent at once are counted too.
    const ipAttempt = await claimAttempt(app.db, throttleKeys.ip(request.ip), { max: limits.ipFailures, windowMs: limits.ipWindowMs, lockMs: limits.ipLockMs });

    const failPassword = async (accountAttempt: Attempt | null) => {
      const ipLock = await failedAttempt(app.db, ipAttempt);
      const accountLock = accountAttempt ? await failedAttempt(app.db, accountAttempt) : null;
      const lock = accountLock ?? ipLock;
      if (lock) throw tooManyAttempts(lock);
    };

    const tenant = await app.db
      .selectFrom('tenants')
      .select(['id', 'mfa_policy'])
      .where('slug', '=', input.client_site)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!tenant) {
      // Same work as a wrong password, so timing does not tell which sites exist.
      await verifyPassword(null, input.password);
      await failPassword(null);
      throw new HttpError(422, chosen.unknownSite, { client_site: [chosen.unknownSite] });
    }

    const accountKey = throttleKeys.account(tenant.id, input.username);
    let accountAttempt: Attempt;
    try {
      accountAttempt = await claimAttempt(app.db, accountKey, { max: limits.accountFailures, windowMs: limits.accountWindowMs, lockMs: limits.accountLockMs });
    } catch (error) {
      // Refused before any check: not a guess from this address.
      await refundAttempt(app.db, ipAttempt);
      throw error;
    }
    const user = await app.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('tenant_id', '=', tenant.id)
      .where((eb) => eb(eb.fn('lower', ['username']), '=', input.username.toLowerCase()))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const ok = await verifyPassword(user?.password_hash ?? null, input.password);
    if (!user || !ok) {
      await failPassword(accountAttempt);
      throw new HttpError(422, chosen.invalidCredentials);
    }
    await refundAttempt(app.db, ipAttempt);
    await clearFailures(app.db, accountKey);

    const methods = await confirmedMethods(app, tenant.id, user.id);
    let data: LoginData;
    if (methods.length > 0) {
      const session = await ensureSession(app, request, reply);
      const twoFactorId = await createChallenge(app, { tenantId: tenant.id, userId: user.id, sessionId: session.id });
      data = { mfa_required: true, mfa_methods: methods, methods, two_factor_id: twoFactorId, mfa_setup_required: false };
    } else if (tenant.mfa_policy === 'required') {
      await startSession(app, request, reply, { tenantId: tenant.id, userId: user.id, state: 'mfa_setup' });
      data = { mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: true };
    } else {
      await startSession(app, request, reply, { tenantId: tenant.id, userId: user.id, state: 'full' });
      data = { mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: false };
    }
    return { success: true as const, data };
  });
}
