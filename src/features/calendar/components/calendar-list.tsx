import { useEventTypes } from '@/data/hooks';
import { useToday } from '@/data/hooks/use-todays-roster';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadMore } from '@/components/load-more';
import { LoadingText } from '@/components/loading-text';
import type { CalendarPages } from '../hooks/use-calendar-pages';
import { CalendarDay } from './calendar-day';
import { groupByDay } from './group-by-day';

/** Entries grouped by day, with "Load more" while there are more (focus moves to the first new entry). */
export function CalendarList({ name, pages, emptyTitle, emptyText }: { name: string; pages: CalendarPages; emptyTitle: string; emptyText: string }) {
  // The entries wait for their types' names too: a day shown without them grew by a line an entry
  // when they came, and pushed the rest down (issue 13).
  const eventTypes = useEventTypes();
  const loading = pages.loading || eventTypes.loading;
  return (
    <HeldRegion name={name} loading={loading}>
      <CalendarListContent pages={pages} loading={loading} types={eventTypes.data} emptyTitle={emptyTitle} emptyText={emptyText} />
    </HeldRegion>
  );
}

function CalendarListContent({
  pages,
  loading,
  types,
  emptyTitle,
  emptyText,
}: {
  pages: CalendarPages;
  loading: boolean;
  types: Record<string, string>;
  emptyTitle: string;
  emptyText: string;
}) {
  const today = useToday();
  const { page, loadingMore, loadMore } = pages;
  if (loading) return <LoadingText />;
  if (page.items.length === 0) return <EmptyState title={emptyTitle}>{emptyText}</EmptyState>;

  return (
    <>
      <div className="calendar-days">
        {groupByDay(page.items).map(({ day, entries }) => (
          <CalendarDay key={day} day={day} entries={entries} today={today} types={types} />
        ))}
      </div>
      <LoadMore items={page.items} hasMore={page.hasMore} waiting={loadingMore} onMore={loadMore} idPrefix="entry-" className="calendar-more" />
    </>
  );
}
