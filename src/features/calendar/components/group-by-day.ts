import type { CalendarDoc } from '@/data/replica';

export interface CalendarDay {
  day: string;
  entries: CalendarDoc[];
}

/** Consecutive entries with the same start date, in the order given (the query's order). */
export function groupByDay(items: readonly CalendarDoc[]): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (const item of items) {
    const last = days[days.length - 1];
    if (last && last.day === item.start_date) last.entries.push(item);
    else days.push({ day: item.start_date, entries: [item] });
  }
  return days;
}
