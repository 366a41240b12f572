import type { MfaEnableData, MfaEnableRequest } from '@/contract/auth';
import { mfaEnable } from '@/api/auth/mfa-enable';
import { fieldError, type Result } from '@/api/result';

/**
 * POST /auth/mfa/enable without a code: starts the authenticator (secret and QR code back) or
 * sends a code to the email address. A signed-in session gives its password again (`current`);
 * without it the server answers 422 on `current` and the page asks for it (see needsPassword).
 */
export function startSetUp(body: ({ method: 'authenticator' } | { method: 'email'; email: string }) & { current?: string }): Promise<Result<MfaEnableData>> {
  return mfaEnable(body satisfies MfaEnableRequest);
}

/** The server's "type your password again" (step-up), or its refusal of the one typed; null otherwise. */
export const passwordProblem = (result: Result<unknown>): string | null => (result.ok || result.status !== 422 ? null : (fieldError(result, 'current') ?? null));
