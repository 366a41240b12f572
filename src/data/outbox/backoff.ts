/** Exponential backoff with a cap and jitter for network errors and 5xx (and 408/409/425/429). */
export const backoffPolicy = {
  baseMs: 2_000,
  capMs: 5 * 60_000,
};

/** Delay before attempt `attempts + 1`, given `attempts` failed ones (≥ 1): half fixed, half random. */
export function retryDelayMs(attempts: number, random: () => number = Math.random, retryAfterMs: number | null = null): number {
  const exponential = Math.min(backoffPolicy.capMs, backoffPolicy.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.min(backoffPolicy.capMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** Statuses worth sending again later, as the HTTP client's retry list (SPEC §7) plus the network error (0). */
export const RETRYABLE = new Set([0, 408, 409, 425, 429, 500, 502, 503, 504]);

export const isRetryable = (status: number): boolean => RETRYABLE.has(status) || status >= 500;
