import { z } from 'zod';

/**
 * Dates, times and timestamps as real calendar values, not just shapes (issue 12, finding 2:
 * "2026-02-30", "99:99" or "0000-01-01" passed a regex and reached PostgreSQL, which answered 500).
 * One rule for both sides. Years are limited to YEAR_RANGE: wide enough for any date a young
 * person or a home writes down (a date of birth, an old photo), narrow enough that every value is a
 * date PostgreSQL and every browser read the same way.
 */
export const YEAR_RANGE = { min: 1900, max: 2200 } as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** UTC with a `Z`, as the server writes them; up to microseconds (PostgreSQL's precision). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,6})?Z$/;

/** YYYY-MM-DD that exists in the calendar (2026-02-29 does not; 2028-02-29 does), within YEAR_RANGE. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < YEAR_RANGE.min || year > YEAR_RANGE.max || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** HH:MM on a 24-hour clock (00:00 to 23:59). */
export function isClockTime(value: string): boolean {
  return TIME.test(value);
}

/** A UTC timestamp `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` whose date exists. */
export function isTimestamp(value: string): boolean {
  const match = TIMESTAMP.exec(value);
  return Boolean(match && isCalendarDate(match[1]!));
}

const DATE_SHAPE = 'Use a date like 2026-01-31';
const TIME_SHAPE = 'Use a time like 09:30';
const TIMESTAMP_SHAPE = 'Use a time like 2026-01-31T09:30:00Z';

export const calendarDateSchema = (message: string = DATE_SHAPE) => z.string({ error: message }).refine(isCalendarDate, { error: message });
export const clockTimeSchema = (message: string = TIME_SHAPE) => z.string({ error: message }).refine(isClockTime, { error: message });
export const utcTimestampSchema = (message: string = TIMESTAMP_SHAPE) => z.string({ error: message }).refine(isTimestamp, { error: message });
