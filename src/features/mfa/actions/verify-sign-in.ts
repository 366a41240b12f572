import type { MfaLoginRequest } from '@/contract/auth';
import { mfaLogin } from '@/api/auth/mfa-login';
import { fieldError } from '@/api/result';
import { loadAccount } from '@/data/load-account';
import { clearMfaChallenge } from '@/data/mfa-challenge';
import { failureMessage } from '@/lib/failure-message';
import { isMfaSessionError } from '../lib/is-mfa-session-error';

export type VerifyOutcome =
  | { kind: 'signed-in' }
  /** A wrong code or recovery code: shown beside the field. */
  | { kind: 'field'; message: string }
  /** The challenge is gone: toast and back to login. */
  | { kind: 'session'; message: string }
  | { kind: 'error'; message: string };

/** POST /auth/mfa/login, then load and store the account (SPEC §4). */
export async function verifySignIn(body: MfaLoginRequest, productName: string): Promise<VerifyOutcome> {
  const result = await mfaLogin(body);
  if (!result.ok) {
    if (isMfaSessionError(result)) {
      clearMfaChallenge();
      return { kind: 'session', message: result.message };
    }
    const field = fieldError(result, body.method === 'recovery_code' ? 'recovery_code' : 'code');
    if (result.status === 422) return { kind: 'field', message: field ?? failureMessage(result, productName) };
    return { kind: 'error', message: failureMessage(result, productName) };
  }
  clearMfaChallenge();
  const account = await loadAccount();
  if (!account.ok) return { kind: 'error', message: failureMessage(account, productName) };
  return { kind: 'signed-in' };
}
