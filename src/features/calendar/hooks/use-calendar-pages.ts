import { useEffect, useRef, useState } from 'react';
import type { CalendarPage, Live } from '@/data/hooks';
import { usePastCalendar, useUpcomingCalendar } from '@/data/hooks';

/** SPEC §4, §9: the calendar shows 10 items, then 10 more at a time. */
export const CALENDAR_PAGE_SIZE = 10;

export interface CalendarPages {
  page: CalendarPage;
  /** Nothing to show yet (first load). */
  loading: boolean;
  /** More were asked for and the bigger page has not arrived: the current items stay on screen. */
  loadingMore: boolean;
  loadMore: () => void;
}

/** While a bigger page loads, the hook briefly has nothing: keep what was on screen instead of flashing "Loading…". */
function useKeptPage(live: Live<CalendarPage>): { page: CalendarPage; loading: boolean; waiting: boolean } {
  const kept = useRef<CalendarPage | null>(null);
  useEffect(() => {
    if (!live.loading) kept.current = live.data;
  });
  const previous = kept.current;
  if (live.loading && previous && previous.items.length > 0) return { page: previous, loading: false, waiting: true };
  return { page: live.data, loading: live.loading, waiting: false };
}

function usePaged(useSource: (limit: number) => Live<CalendarPage>): CalendarPages {
  const [limit, setLimit] = useState(CALENDAR_PAGE_SIZE);
  const { page, loading, waiting } = useKeptPage(useSource(limit));
  return { page, loading, loadingMore: waiting, loadMore: () => setLimit(page.items.length + CALENDAR_PAGE_SIZE) };
}

/** Upcoming entries (today on), 10 at a time. */
export const useUpcomingPages = (): CalendarPages => usePaged(useUpcomingCalendar);

/** Past entries (most recent first), 10 at a time. */
export const usePastPages = (): CalendarPages => usePaged(usePastCalendar);
