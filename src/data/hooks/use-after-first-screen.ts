import { useEffect, useState } from 'react';
import { afterFirstScreen } from '../replication/start-when';

/**
 * True once `enabled` holds and the first screen has had the main thread to itself (the same wait as
 * a warm start's pulls, ../replication/start-when.ts), and from then on. For a read that nothing on
 * screen needs yet and that costs a lot: it no longer lands on the frames right after the first
 * paint, where a tap would have waited for it (issue 13).
 */
export function useAfterFirstScreen(enabled: boolean): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (!enabled || due) return;
    return afterFirstScreen(() => setDue(true));
  }, [enabled, due]);
  return enabled && due;
}
