import { useState } from 'react';
import type { CalendarPage, Live } from '@/data/hooks';
import { usePastCalendar, useUpcomingCalendar } from '@/data/hooks';
import { useKeptPage } from '@/data/hooks/use-kept-page';

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

function usePaged(useSource: (limit: number) => Live<CalendarPage>): CalendarPages {
  const [limit, setLimit] = useState(CALENDAR_PAGE_SIZE);
  const { page, loading, waiting } = useKeptPage(useSource(limit));
  return { page, loading, loadingMore: waiting, loadMore: () => setLimit(page.items.length + CALENDAR_PAGE_SIZE) };
}

/** Upcoming entries (today on), 10 at a time. */
export const useUpcomingPages = (): CalendarPages => usePaged(useUpcomingCalendar);

/** Past entries (most recent first), 10 at a time. */
export const usePastPages = (): CalendarPages => usePaged(usePastCalendar);
