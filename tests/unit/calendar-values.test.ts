import { describe, expect, it } from 'vitest';
import { isCalendarDate, isClockTime, isTimestamp } from '@/contract/calendar-values';

describe('calendar values (issue 12 finding 2)', () => {
  it('dates exist in the calendar and fall within the year range', () => {
    for (const ok of ['2026-01-31', '2028-02-29', '2000-02-29', '1900-01-01', '2200-12-31']) expect(isCalendarDate(ok), ok).toBe(true);
    for (const bad of ['2026-02-29', '1900-02-29', '2026-02-30', '2026-13-45', '2026-00-10', '2026-04-31', '2026-01-00', '0000-01-01', '1899-12-31', '2201-01-01', '2026-1-31', '26-01-31', '2026-01-31T00:00:00Z', ' 2026-01-31', ''])
      expect(isCalendarDate(bad), bad).toBe(false);
  });

  it('times are real clock times', () => {
    for (const ok of ['00:00', '09:30', '23:59']) expect(isClockTime(ok), ok).toBe(true);
    for (const bad of ['24:00', '23:60', '99:99', '9:30', '09:30:00', '']) expect(isClockTime(bad), bad).toBe(false);
  });

  it('timestamps are UTC, on a real date and time, up to microseconds', () => {
    for (const ok of ['2026-01-31T09:30:00Z', '2026-01-31T09:30:00.123456Z', '2026-01-31T23:59:59.1Z']) expect(isTimestamp(ok), ok).toBe(true);
    for (const bad of ['2026-13-45T99:99:99Z', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-31T09:30:60Z', '2026-01-31T09:30:00.1234567Z', '2026-01-31T09:30:00', '2026-01-31T09:30:00+01:00', '0000-01-01T00:00:00Z'])
      expect(isTimestamp(bad), bad).toBe(false);
  });
});
