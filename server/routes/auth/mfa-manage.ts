import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mfaManageMessages, mfaMethodParamsSchema, mfaStepUpRequestSchema, type MfaRemoveData, type RecoveryCodesData } from '../../../src/contract/auth';
import { paths } from '../../../src/contract/paths';
import { HttpError } from '../../lib/http-errors';
import { hashRecoveryCode, newRecoveryCodes } from '../../lib/recovery-codes';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { confirmedMethods } from '../../domain/mfa/methods';
import { stepUp, tellAddresses, tellMethodRemoved } from '../../domain/mfa/step-up';

/**
 * A young person manages their own two-factor sign-in (issue 12, docs/api.md), each step after the
 * password again (step-up: a tablet left signed in must not let someone else weaken the account),
 * and every address they have hears of the change.
 * - DELETE /api/v1/auth/mfa/methods/{method}: turns one method off. The last one can't go where the
 *   site requires two-factor; when the last one goes elsewhere, the recovery codes go with it (the
 *   next set-up gets new ones).
 * - POST /api/v1/auth/mfa/recovery-codes: ten new codes, shown once; the old ones stop working.
 */
export default async function mfaManageRoutes(app: FastifyInstance) {
  app.delete(paths.mfaMethod.pattern, async (request) => {
    const auth = requireAuth(request);
    const { method } = parse(mfaMethodParamsSchema, request.params);
    const input = parse(mfaStepUpRequestSchema, request.body ?? {});
    await stepUp(app, auth, input.current);

    const methods = await confirmedMethods(app, auth.tenantId, auth.userId);
    if (!methods.includes(method)) throw new HttpError(422, mfaManageMessages.notOn, { method: [mfaManageMessages.notOn] });
    const tenant = await app.db.selectFrom('tenants').select('mfa_policy').where('id', '=', auth.tenantId).executeTakeFirstOrThrow();
    if (tenant.mfa_policy === 'required' && methods.length === 1) {
      throw new HttpError(422, mfaManageMessages.keepOne, { method: [mfaManageMessages.keepOne] });
    }

    const remaining = methods.filter((m) => m !== method);
    const removed = await app.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('mfa_methods')
        .set({ deleted_at: sql`now()`, updated_at: sql`now()`, secret_encrypted: null, pending_code_hash: null, pending_code_expires_at: null })
        .where('tenant_id', '=', auth.tenantId)
        .where('user_id', '=', auth.userId)
        .where('method', '=', method)
        .where('deleted_at', 'is', null)
        .returning('email')
        .executeTakeFirst();
      if (remaining.length === 0) await tx.deleteFrom('recovery_codes').where('tenant_id', '=', auth.tenantId).where('user_id', '=', auth.userId).execute();
      return row;
    });
    await tellMethodRemoved(app, auth, method, removed?.email ?? null);
    const data: MfaRemoveData = { method, methods: remaining };
    return { success: true, message: mfaManageMessages.removed, data };
  });

  app.post(paths.recoveryCodes.pattern, async (request) => {
    const auth = requireAuth(request);
    const input = parse(mfaStepUpRequestSchema, request.body ?? {});
    await stepUp(app, auth, input.current);
    if ((await confirmedMethods(app, auth.tenantId, auth.userId)).length === 0) {
      throw new HttpError(422, mfaManageMessages.turnOnFirst, { recovery_codes: [mfaManageMessages.turnOnFirst] });
    }
    const codes = newRecoveryCodes();
    await app.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('recovery_codes').where('tenant_id', '=', auth.tenantId).where('user_id', '=', auth.userId).execute();
      await tx
        .insertInto('recovery_codes')
        .values(codes.map((code) => ({ tenant_id: auth.tenantId, user_id: auth.userId, code_hash: hashRecoveryCode(app.keys.codes, code) })))
        .execute();
    });
    await tellAddresses(app, auth, 'New recovery codes were just made (the old ones no longer work)');
    const data: RecoveryCodesData = { recovery_codes: codes };
    return { success: true, message: mfaManageMessages.newCodes, data };
  });
}
