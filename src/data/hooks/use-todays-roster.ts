import { useCallback, useEffect, useState } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import type { RosterDoc } from '../replica/types';
import { localDay } from '../replication/today';
import { todaysRoster$ } from './queries';
import { useLive, type Live } from './use-live';

const none: RosterDoc[] = [];

/** Today's date in the device's zone, updated when the day changes while the screen is open. */
export function useToday(): string {
  const [today, setToday] = useState(() => localDay());
  useEffect(() => {
    const timer = setInterval(() => setToday(localDay()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return today;
}

/** Today's staff roster, sorted by start time then last name. */
export function useTodaysRoster(): Live<RosterDoc[]> {
  const today = useToday();
  const factory = useCallback((open: OpenReplica) => todaysRoster$(open.db, today), [today]);
  return useLive('rota', factory, none, (list) => list.length === 0);
}
