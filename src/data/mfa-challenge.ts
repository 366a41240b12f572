import type { MfaMethod } from '@/contract/auth';

/** A pending two-factor sign-in, kept in sessionStorage so a reload of /auth/mfa/verify still works. */
export const MFA_CHALLENGE_KEY = 'hearth.mfaChallenge';

const methods: readonly MfaMethod[] = ['authenticator', 'email'];
export type MfaChallenge = { two_factor_id: string; methods: MfaMethod[] };

export function readMfaChallenge(): MfaChallenge | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(MFA_CHALLENGE_KEY);
    const value = (raw ? JSON.parse(raw) : null) as Partial<MfaChallenge> | null;
    if (!value || typeof value.two_factor_id !== 'string' || !value.two_factor_id || !Array.isArray(value.methods)) return null;
    return { two_factor_id: value.two_factor_id, methods: value.methods.filter((m) => methods.includes(m)) };
  } catch {
    return null;
  }
}

export function saveMfaChallenge(challenge: MfaChallenge): void {
  try {
    globalThis.sessionStorage?.setItem(MFA_CHALLENGE_KEY, JSON.stringify(challenge));
  } catch {
    /* private mode: the challenge then lives only until a reload */
  }
}

export function clearMfaChallenge(): void {
  try {
    globalThis.sessionStorage?.removeItem(MFA_CHALLENGE_KEY);
  } catch {
    /* ignore */
  }
}
