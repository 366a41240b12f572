import { longDate } from '@/lib/en-gb';

/** yyyy-MM-dd as a local calendar day (no time-zone shift). */
export function parseDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/** "Saturday 28 November" (the year only when it is not this year's). */
export function fullDate(day: string, today: string): string {
  const date = parseDay(day);
  return longDate(date, { weekday: true, year: date.getFullYear() !== parseDay(today).getFullYear() });
}

const offsetDays = (day: string, today: string) => Math.round((parseDay(day).getTime() - parseDay(today).getTime()) / 86_400_000);

/** The heading of a day: "Today", "Tomorrow", "Yesterday", else the full date. */
export function dayLabel(day: string, today: string): string {
  const offset = offsetDays(day, today);
  if (offset === 0) return 'Today';
  if (offset === 1) return 'Tomorrow';
  if (offset === -1) return 'Yesterday';
  return fullDate(day, today);
}
