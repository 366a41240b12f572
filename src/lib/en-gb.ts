/**
 * en-GB numbers, dates and relative times, written out: the same text as Intl's en-GB formatters
 * (tests/unit/en-gb.test.ts holds them to it), without Intl. A page's first Intl formatter loads
 * ICU's locale data: 20–60 ms of main thread measured in Chromium here, four times that on a cheap
 * phone, in the middle of the first render of every signed-in screen (issue 13, "Long tasks at start").
 * Dates are read in the device's time zone, as Intl does.
 */
import { groupDigits } from '@/contract/group-digits';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export { groupDigits };

const two = (n: number): string => String(n).padStart(2, '0');

/** "Saturday, 28 November 2026", "Saturday 28 November", "28 November 2026": Intl's en-GB long date with these parts. */
export function longDate(date: Date, parts: { weekday: boolean; year: boolean }): string {
  const day = `${date.getDate()} ${MONTHS[date.getMonth()]}`;
  if (!parts.weekday) return parts.year ? `${day} ${date.getFullYear()}` : day;
  const weekday = WEEKDAYS[date.getDay()];
  // ICU puts a comma after the weekday only when the year is shown.
  return parts.year ? `${weekday}, ${day} ${date.getFullYear()}` : `${weekday} ${day}`;
}

/** Intl's en-GB `dateStyle: 'long', timeStyle: 'short'`: "28 November 2026 at 09:05". */
export const longDateTime = (date: Date): string =>
  `${longDate(date, { weekday: false, year: true })} at ${two(date.getHours())}:${two(date.getMinutes())}`;

/** The largest unit that has fully passed names the time; a month is 30 days, a year 365. */
export const RELATIVE_UNITS: readonly (readonly ['year' | 'month' | 'week' | 'day' | 'hour' | 'minute', number])[] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' }) for a past count: "yesterday", "last week", "2 days ago". */
function ago(count: number, unit: string): string {
  if (count === 1) return unit === 'day' ? 'yesterday' : unit === 'hour' || unit === 'minute' ? `1 ${unit} ago` : `last ${unit}`;
  return `${groupDigits(count)} ${unit}s ago`;
}

/** "just now", "5 minutes ago", "yesterday", "2 days ago"… from an ISO time, or "" when unreadable. */
export function relativeTimeText(iso: string, now: number = Date.now()): string {
  const elapsed = now - Date.parse(iso);
  if (!Number.isFinite(elapsed)) return '';
  for (const [unit, size] of RELATIVE_UNITS) {
    if (elapsed >= size) return ago(Math.floor(elapsed / size), unit);
  }
  return 'just now';
}
