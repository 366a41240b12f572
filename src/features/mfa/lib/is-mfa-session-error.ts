import { messages } from '@/contract/messages';
import type { Failure } from '@/api/result';

/** "Invalid MFA session" / "MFA session expired. Please try again.": the challenge is gone, start again. */
export const isMfaSessionError = (failure: Failure): boolean =>
  failure.message === messages.invalidMfaSession || failure.message === messages.mfaSessionExpired;
