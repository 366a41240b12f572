import type { CalendarDoc } from '@/data/replica';
import { CalendarEntry } from './calendar-entry';
import { dayLabel, fullDate } from './day-label';

/** A day: an h2 ("Today", "Tomorrow", "Saturday 28 November") and the list of its entries. */
export function CalendarDay({
  day,
  entries,
  today,
  types,
}: {
  day: string;
  entries: CalendarDoc[];
  today: string;
  types: Record<string, string>;
}) {
  const label = dayLabel(day, today);
  const isToday = day === today;
  const headingId = `day-${day}`;
  return (
    <section className={`day${isToday ? ' day--today' : ''}`} aria-labelledby={headingId}>
      <div className="day__header">
        <h2 id={headingId} className="day__title">
          <time dateTime={day} aria-current={isToday ? 'date' : undefined}>
            {label}
          </time>
        </h2>
        {label !== fullDate(day, today) ? <p className="day__date">{fullDate(day, today)}</p> : null}
      </div>
      <ul className="day__entries" aria-labelledby={headingId}>
        {entries.map((entry) => (
          <CalendarEntry key={entry.id} entry={entry} typeName={types[entry.event.event_type_id]} today={today} />
        ))}
      </ul>
    </section>
  );
}
