/**
 * src/lib/en-gb.ts writes out what Intl's en-GB formatters say, so that a start never loads ICU's
 * locale data: every function is held to Intl itself here (Node's ICU gives Chromium's text for
 * these formats; checked when this was written).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupDigits, longDate, longDateTime, RELATIVE_UNITS, relativeTimeText } from '@/lib/en-gb';

// Any moment from 1900 to 2200, in the time zone the tests run in (as the app reads dates).
const dates = fc.date({ min: new Date(1900, 0, 1), max: new Date(2200, 0, 1), noInvalidDate: true });
const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', options);

describe('en-GB without Intl', () => {
  it('groups digits as toLocaleString("en-GB") does, for any whole number and some fractions', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-GB'));
      }),
    );
    for (const n of [0, -0, 7, 999, 1000, -1000, 5000, 123456, 1.5, -2.25, Number.MAX_SAFE_INTEGER + 2]) {
      expect(groupDigits(n)).toBe(n.toLocaleString('en-GB'));
    }
  });

  it('writes long dates as Intl does, with and without the weekday and the year', () => {
    const withWeekdayAndYear = intl({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const withWeekday = intl({ weekday: 'long', day: 'numeric', month: 'long' });
    const withYear = intl({ day: 'numeric', month: 'long', year: 'numeric' });
    const plain = intl({ day: 'numeric', month: 'long' });
    fc.assert(
      fc.property(dates, (date) => {
        expect(longDate(date, { weekday: true, year: true })).toBe(withWeekdayAndYear.format(date));
        expect(longDate(date, { weekday: true, year: false })).toBe(withWeekday.format(date));
        expect(longDate(date, { weekday: false, year: true })).toBe(withYear.format(date));
        expect(longDate(date, { weekday: false, year: false })).toBe(plain.format(date));
      }),
    );
    expect(longDate(new Date(2026, 10, 28), { weekday: true, year: true })).toBe('Saturday, 28 November 2026');
  });

  it('writes a date and time as dateStyle long, timeStyle short', () => {
    const format = intl({ dateStyle: 'long', timeStyle: 'short' });
    fc.assert(
      fc.property(dates, (date) => {
        expect(longDateTime(date)).toBe(format.format(date));
      }),
    );
    expect(longDateTime(new Date(2026, 10, 28, 9, 5))).toBe('28 November 2026 at 09:05');
  });

  it('says how long ago as RelativeTimeFormat with numeric "auto" does', () => {
    const relative = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });
    const now = Date.UTC(2026, 10, 27, 12);
    const expected = (elapsed: number) => {
      const unit = RELATIVE_UNITS.find(([, size]) => elapsed >= size);
      return unit ? relative.format(-Math.floor(elapsed / unit[1]), unit[0]) : 'just now';
    };
    fc.assert(
      fc.property(fc.integer({ min: -86_400_000, max: 3_000 * 365 * 86_400_000 }), (elapsed) => {
        expect(relativeTimeText(new Date(now - elapsed).toISOString(), now)).toBe(expected(elapsed));
      }),
    );
    for (const [elapsed, text] of [
      [59_999, 'just now'],
      [60_000, '1 minute ago'],
      [86_400_000, 'yesterday'],
      [2 * 86_400_000, '2 days ago'],
      [7 * 86_400_000, 'last week'],
      [400 * 86_400_000, 'last year'],
      [-5_000, 'just now'],
    ] as const) {
      expect(relativeTimeText(new Date(now - elapsed).toISOString(), now)).toBe(text);
    }
    expect(relativeTimeText('not a date', now)).toBe('');
  });
});
