import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { MfaMethod } from '../../../src/contract/auth';
import { decrypt } from '../../lib/crypto';
import { hashRecoveryCode, newRecoveryCodes } from '../../lib/recovery-codes';
import { matchTotpStep } from '../../lib/totp';
import { claimAttempt, failedAttempt, recordFailure, throttleKeys, tooManyAttempts, type Attempt } from '../../lib/throttle';

/** The confirmed two-factor methods of a person, in a stable order. */
export async function confirmedMethods(app: FastifyInstance, tenantId: string, userId: string): Promise<MfaMethod[]> {
  const rows = await app.db
    .selectFrom('mfa_methods')
    .select('method')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('method')
    .execute();
  return rows.map((r) => r.method);
}

/**
 * Checks an authenticator code against a method row and consumes its time step: the update only
 * succeeds for a step later than the last one used, so a code (or an older one) never works twice,
 * even with two requests racing.
 */
export async function consumeTotp(
  app: FastifyInstance,
  row: { id: string; secret_encrypted: string | null },
  code: string,
  confirm = false,
): Promise<boolean> {
  if (!row.secret_encrypted) return false;
  const step = matchTotpStep(decrypt(app.keys.secrets, row.secret_encrypted), code);
  if (step === null) return false;
  const updated = await app.db
    .updateTable('mfa_methods')
    .set({
      last_used_step: step,
      updated_at: sql`now()`,
      ...(confirm ? { confirmed_at: sql`now()` } : {}),
    })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Ten new recovery codes, but only the first time any method is confirmed; shown once. */
export async function firstRecoveryCodes(app: FastifyInstance, tenantId: string, userId: string): Promise<string[] | undefined> {
  const existing = await app.db
    .selectFrom('recovery_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  if (existing.n > 0) return undefined;
  const codes = newRecoveryCodes();
  await app.db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ tenant_id: tenantId, user_id: userId, code_hash: hashRecoveryCode(app.keys.codes, code) })))
    .execute();
  return codes;
}

/** Marks a recovery code used; false when it is wrong or already used. */
export async function consumeRecoveryCode(app: FastifyInstance, tenantId: string, userId: string, code: string): Promise<boolean> {
  const used = await app.db
    .updateTable('recovery_codes')
    .set({ used_at: sql`now()`, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashRecoveryCode(app.keys.codes, code))
    .where('used_at', 'is', null)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

const codeRule = (app: FastifyInstance) => ({ max: app.limits.codeFailures, windowMs: app.limits.codeWindowMs, lockMs: app.limits.codeLockMs });

/** Counts a wrong code against the person (all challenges and set-up); 429 when that locks them. */
export async function recordCodeFailure(app: FastifyInstance, userId: string): Promise<void> {
  const lock = await recordFailure(app.db, throttleKeys.codes(userId), codeRule(app));
  if (lock) throw tooManyAttempts(lock);
}

/** A sign-in code guessed for the person, claimed before it is checked (lib/throttle.ts); 429 when locked or spent. */
export function claimCodeAttempt(app: FastifyInstance, userId: string): Promise<Attempt> {
  return claimAttempt(app.db, throttleKeys.codes(userId), codeRule(app));
}

/** The claimed code was wrong; 429 when that locks the person. */
export async function failedCodeAttempt(app: FastifyInstance, attempt: Attempt): Promise<void> {
  const lock = await failedAttempt(app.db, attempt);
  if (lock) throw tooManyAttempts(lock);
}
