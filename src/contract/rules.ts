/** Business constants of SPEC §9 and the values it left open (see docs/decisions.md). */
export const rules = {
  codeLength: 6,
  recoveryCodeCount: 10,
  passwordMinLength: 12,
  passwordMaxLength: 128,
  usernameMaxLength: 100,
  toastDurationMs: 6000,
  buildCheckIntervalMs: 60 * 60 * 1000,
  chunkReloadGuardMs: 10_000,
  loadingBarThrottleMs: 200,
  loadingBarDurationMs: 2000,
  calendarPageSize: 10,
  reviewLogRewardPoints: 20,
  defaultTheme: 'fun',
  defaultRegion: 'United Kingdom',
} as const;

export const YOUNG_PERSON_USER_TYPE = 'young_person_user';
