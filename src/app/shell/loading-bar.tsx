import { startTransition, useEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router-dom';
import { getInFlightCount, subscribeActivity } from '@/api/events';
import { rules } from '@/contract/rules';

/**
 * Whether any request is in flight, followed in a transition: the bar shows only after
 * `loadingBarThrottleMs` anyway, and an urgent update (a store read with `useSyncExternalStore` is
 * always one) at every request of a signed-in start interrupted the screens' own rendering and
 * flushed their effects in the same task (issue 13). Counts that change while busy stay busy: no render.
 */
function useRequestsBusy(): boolean {
  const [busy, setBusy] = useState(() => getInFlightCount() > 0);
  // What was last asked for: the same again is no update (a transition that arrives while a screen
  // renders in one makes React start that rendering again).
  const asked = useRef(busy);
  useEffect(() => {
    const follow = (): void => {
      const now = getInFlightCount() > 0;
      if (now === asked.current) return;
      asked.current = now;
      startTransition(() => setBusy(now));
    };
    follow();
    return subscribeActivity(follow);
  }, []);
  return busy;
}

/**
 * SPEC §2/§9: a 4px orange bar at the top, shown only when navigation or requests last longer than
 * 200 ms; it creeps across over 2000 ms and finishes when everything is done.
 */
export function LoadingBar() {
  const navigation = useNavigation();
  const requestsBusy = useRequestsBusy();
  const busy = navigation.state !== 'idle' || requestsBusy;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) return;
    let shown = false;
    const timer = setTimeout(() => {
      shown = true;
      setVisible(true);
    }, rules.loadingBarThrottleMs);
    return () => {
      clearTimeout(timer);
      // Only a bar that showed has anything to hide: no update for the many short requests.
      if (shown) setVisible(false);
    };
  }, [busy]);

  return (
    <div className="loading-bar" data-visible={visible} aria-hidden="true" style={{ ['--loading-duration' as string]: `${rules.loadingBarDurationMs}ms` }}>
      <div className="loading-bar__fill" />
    </div>
  );
}
