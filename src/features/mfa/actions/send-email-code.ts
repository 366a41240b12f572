import { chosenMessages } from '@/contract/messages';
import { mfaSendCode } from '@/api/auth/mfa-send-code';
import { clearMfaChallenge } from '@/data/mfa-challenge';
import { failureMessage } from '@/lib/failure-message';
import { isMfaSessionError } from '../lib/is-mfa-session-error';

export type SendCodeOutcome =
  | { kind: 'sent'; message: string }
  | { kind: 'session'; message: string }
  | { kind: 'error'; message: string };

/** POST /auth/mfa/send-code for a pending sign-in; the server's message is passed on (SPEC §8). */
export async function sendEmailCode(twoFactorId: string, productName: string): Promise<SendCodeOutcome> {
  const result = await mfaSendCode(twoFactorId);
  if (result.ok) return { kind: 'sent', message: result.data ?? chosenMessages.mfaCodeSent };
  if (isMfaSessionError(result)) {
    clearMfaChallenge();
    return { kind: 'session', message: result.message };
  }
  return { kind: 'error', message: failureMessage(result, productName) };
}
