import type { LoginRequest } from '@/contract/auth';
import { login } from '@/api/auth/login';
import { loadAccount } from '@/data/load-account';
import { clearMfaChallenge, saveMfaChallenge } from '@/data/mfa-challenge';
import { failureMessage } from '@/lib/failure-message';

export type SignInOutcome =
  | { kind: 'signed-in' }
  | { kind: 'mfa-verify' }
  | { kind: 'mfa-setup' }
  | { kind: 'error'; message: string };

/**
 * SPEC §4: log in; a second factor sends the person to verification (the challenge is kept in
 * sessionStorage), a required set-up to configuration, otherwise the account is loaded and stored.
 */
export async function signIn(credentials: LoginRequest, productName: string): Promise<SignInOutcome> {
  clearMfaChallenge();
  const result = await login(credentials);
  if (!result.ok) return { kind: 'error', message: failureMessage(result, productName) };

  const data = result.data;
  const methods = data.methods.length ? data.methods : data.mfa_methods;
  if ((data.mfa_required && methods.length) || (data.two_factor_id && methods.length)) {
    if (!data.two_factor_id) return { kind: 'error', message: failureMessage({ ok: false, status: 0, message: '' }, productName) };
    saveMfaChallenge({ two_factor_id: data.two_factor_id, methods });
    return { kind: 'mfa-verify' };
  }
  if (data.mfa_setup_required) return { kind: 'mfa-setup' };

  const account = await loadAccount();
  if (!account.ok) return { kind: 'error', message: failureMessage(account, productName) };
  return { kind: 'signed-in' };
}
