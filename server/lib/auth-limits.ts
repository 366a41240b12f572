/**
 * Every time limit and brute-force threshold of sign-in, in one place (documented in the README).
 * buildApp accepts overrides so tests can exercise them quickly.
 */
export const authLimits = {
  /** A guest session exists so login is CSRF-protected; it lives 2 hours without use. */
  guestIdleMs: 2 * 60 * 60 * 1000,
  /** A signed-in session ends after 24 hours without a request, and after 14 days in any case. */
  idleMs: 24 * 60 * 60 * 1000,
  absoluteMs: 14 * 24 * 60 * 60 * 1000,
  /** Idle expiry is pushed forward at most once a minute to save writes. */
  touchEveryMs: 60 * 1000,
  /** Expired sessions, challenges and counters are purged this often. */
  cleanupEveryMs: 10 * 60 * 1000,
  /** A two-factor challenge after a correct password. */
  challengeMs: 10 * 60 * 1000,
  challengeMaxAttempts: 5,
  /** Emailed codes (sign-in and set-up). */
  emailCodeMs: 10 * 60 * 1000,
  emailSendsPerChallenge: 5,
  /** Failed passwords per account (site + username). */
  accountFailures: 5,
  accountWindowMs: 15 * 60 * 1000,
  accountLockMs: 15 * 60 * 1000,
  /** Failed passwords (and unknown sites) per IP address. */
  ipFailures: 20,
  ipWindowMs: 15 * 60 * 1000,
  ipLockMs: 15 * 60 * 1000,
  /** Wrong two-factor codes per account, across challenges and set-up. */
  codeFailures: 10,
  codeWindowMs: 15 * 60 * 1000,
  codeLockMs: 15 * 60 * 1000,
  /** Coarse ceiling on every /api/auth/* request per IP (@fastify/rate-limit). */
  authRequestsPerMinute: 60,
};

export type AuthLimits = typeof authLimits;
