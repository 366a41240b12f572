import { mfaRemoveResponseSchema, recoveryCodesResponseSchema, type MfaMethod, type MfaRemoveData, type RecoveryCodesData } from '@/contract/auth';
import { paths } from '@/contract/paths';
import { request } from '../client';
import type { Result } from '../result';

/** DELETE /v1/auth/mfa/methods/{method} with the password again (issue 12). */
export async function removeMfaMethod(method: MfaMethod, current: string): Promise<Result<MfaRemoveData>> {
  const result = await request(paths.mfaMethod.build(method), { method: 'DELETE', body: { current }, schema: mfaRemoveResponseSchema });
  return result.ok ? { ...result, data: result.data.data } : result;
}

/** POST /v1/auth/mfa/recovery-codes with the password again: ten new codes, shown once. */
export async function renewRecoveryCodes(current: string): Promise<Result<RecoveryCodesData>> {
  const result = await request(paths.recoveryCodes.build(), { method: 'POST', body: { current }, schema: recoveryCodesResponseSchema });
  return result.ok ? { ...result, data: result.data.data } : result;
}
