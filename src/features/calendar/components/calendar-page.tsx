import { useState } from 'react';
import { PageHeading } from '@/components/page-heading';
import { usePastPages, useUpcomingPages } from '../hooks/use-calendar-pages';
import { CalendarList } from './calendar-list';
import './calendar.css';

function UpcomingCalendar() {
  return (
    <CalendarList
      name="calendar.upcoming"
      pages={useUpcomingPages()}
      emptyTitle="Nothing in your calendar yet."
      emptyText="When staff add appointments or important dates for you, they will show up here."
    />
  );
}

function PastCalendar() {
  return <CalendarList name="calendar.past" pages={usePastPages()} emptyTitle="Nothing in the past yet." emptyText="Appointments and dates that have gone by will show up here." />;
}

/** /calendar: appointments and dates from the replica (works offline), grouped by day, 10 at a time. */
export function CalendarPage() {
  const [view, setView] = useState<'upcoming' | 'past'>('upcoming');
  return (
    <div className="page calendar">
      <div className="calendar__header">
        <PageHeading>Calendar</PageHeading>
        <div className="segmented" role="group" aria-label="Which dates">
          <button type="button" className="segmented__option" aria-pressed={view === 'upcoming'} onClick={() => setView('upcoming')}>
            Coming up
          </button>
          <button type="button" className="segmented__option" aria-pressed={view === 'past'} onClick={() => setView('past')}>
            Past
          </button>
        </div>
      </div>
      {view === 'upcoming' ? <UpcomingCalendar /> : <PastCalendar />}
    </div>
  );
}
