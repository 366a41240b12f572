import type { MfaEnableData, MfaEnableRequest } from '@/contract/auth';
import { mfaEnable } from '@/api/auth/mfa-enable';
import type { Result } from '@/api/result';

/**
 * POST /auth/mfa/enable without a code: starts the authenticator (secret and QR code back) or
 * sends a code to the email address.
 */
export function startSetUp(body: { method: 'authenticator' } | { method: 'email'; email: string }): Promise<Result<MfaEnableData>> {
  return mfaEnable(body satisfies MfaEnableRequest);
}
