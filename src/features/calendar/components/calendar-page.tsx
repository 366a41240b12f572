import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function CalendarPage() {
  return (
    <div className="page">
      <PageHeading>Calendar</PageHeading>
      <EmptyState
        title="Nothing in your calendar yet."
      >
        When staff add appointments or important dates for you, they will show up here.
      </EmptyState>
    </div>
  );
}
