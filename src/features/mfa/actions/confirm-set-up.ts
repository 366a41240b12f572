import type { MfaEnableData } from '@/contract/auth';
import { mfaEnable } from '@/api/auth/mfa-enable';
import type { Result } from '@/api/result';

/** POST /auth/mfa/enable with the code: confirms the method; recovery codes come back the first time. */
export function confirmSetUp(
  body: { method: 'authenticator'; code: string } | { method: 'email'; email: string; code: string },
): Promise<Result<MfaEnableData>> {
  return mfaEnable(body);
}
