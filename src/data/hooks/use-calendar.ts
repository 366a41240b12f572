import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import { pastCalendar$, upcomingCalendar$, type CalendarPage } from './queries';
import { useLive, type Live } from './use-live';
import { useToday } from './use-todays-roster';

const empty: CalendarPage = Object.freeze({ items: [], hasMore: false }) as unknown as CalendarPage;
const isEmpty = (page: CalendarPage) => page.items.length === 0;

/** From today on, by start date and time; raise `limit` by 10 to load more (SPEC §4, §9). */
export function useUpcomingCalendar(limit: number): Live<CalendarPage> {
  const today = useToday();
  const factory = useCallback((open: OpenReplica) => upcomingCalendar$(open.db, today, limit), [today, limit]);
  return useLive('calendar', factory, empty, isEmpty);
}

/** Before today, most recent first. */
export function usePastCalendar(limit: number): Live<CalendarPage> {
  const today = useToday();
  const factory = useCallback((open: OpenReplica) => pastCalendar$(open.db, today, limit), [today, limit]);
  return useLive('calendar', factory, empty, isEmpty);
}
