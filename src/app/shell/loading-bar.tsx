import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';
import { getInFlightCount, subscribeActivity } from '@/api/events';
import { rules } from '@/contract/rules';
import { useInTransition } from '@/data/create-store';

/**
 * Whether any request is in flight, followed in a transition (the bar shows only after
 * `loadingBarThrottleMs` anyway): counts that change while busy stay busy, no render.
 */
const anyInFlight = (): boolean => getInFlightCount() > 0;

/**
 * SPEC §2/§9: a 4px orange bar at the top, shown only when navigation or requests last longer than
 * 200 ms; it creeps across over 2000 ms and finishes when everything is done.
 */
export function LoadingBar() {
  const navigation = useNavigation();
  const requestsBusy = useInTransition(subscribeActivity, anyInFlight);
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
