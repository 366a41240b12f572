import type { CalendarDoc } from '@/data/replica';
import { fullDate } from './day-label';

/**
 * One appointment: time ("All day" or "10:30–11:30"), title, type, place and description.
 * The description is staff-written: React renders it as text, never as HTML.
 */
export function CalendarEntry({ entry, typeName, today }: { entry: CalendarDoc; typeName: string | undefined; today: string }) {
  const { event } = entry;
  const allDay = !entry.start_time;
  const multiDay = entry.end_date > entry.start_date;
  return (
    <li className={`entry${allDay ? ' entry--all-day' : ''}`} id={`entry-${entry.id}`} tabIndex={-1}>
      <p className="entry__time">
        {allDay ? (
          'All day'
        ) : (
          <>
            <time dateTime={`${entry.start_date}T${entry.start_time}`}>{entry.start_time}</time>
            {entry.end_time ? (
              <>
                –<time dateTime={`${entry.end_date}T${entry.end_time}`}>{entry.end_time}</time>
              </>
            ) : null}
          </>
        )}
      </p>
      <div className="entry__body">
        <h3 className="entry__title">{event.title}</h3>
        {typeName || multiDay ? (
          <p className="entry__tags">
            {typeName ? <span className="entry__type">{typeName}</span> : null}
            {multiDay ? (
              <span className="entry__until">
                Until <time dateTime={entry.end_date}>{fullDate(entry.end_date, today)}</time>
              </span>
            ) : null}
          </p>
        ) : null}
        {event.location ? (
          <p className="entry__location">
            <span className="entry__label">Where:</span> {event.location}
          </p>
        ) : null}
        {event.description ? <p className="entry__description">{event.description}</p> : null}
      </div>
    </li>
  );
}
