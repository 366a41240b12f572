/**
 * A Retry-After header value (RFC 9110 §10.2.3) in milliseconds from `now`: delta-seconds or an
 * HTTP-date. Null when absent, empty or unreadable; never negative (a date in the past is 0).
 *
 * Same edge behaviour as the three copies it replaces (src/api/client.ts,
 * src/api/outbox-transport.ts, sw/worker-transport.ts): the number is read with `Number`, so
 * surrounding spaces are ignored, fractions are kept (`1.5` → 1500) and a negative number is 0;
 * anything that is not a finite number goes to `Date.parse`.
 */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
