/**
 * `n.toLocaleString('en-GB')` ("1,234,567") without Intl: whole numbers by hand, anything else
 * (never, in the messages) through Intl. Messages are built when their module loads, and a page's
 * first Intl formatter loads ICU's locale data: tens of milliseconds of main thread at start
 * (src/lib/en-gb.ts, tests/unit/en-gb.test.ts).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-GB');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 || Object.is(n, -0) ? `-${digits}` : digits;
}
