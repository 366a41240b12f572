import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigation } from 'react-router-dom';
import { getInFlightCount, subscribeActivity } from '@/api/events';
import { rules } from '@/contract/rules';

/**
 * SPEC §2/§9: a 4px orange bar at the top, shown only when navigation or requests last longer than
 * 200 ms; it creeps across over 2000 ms and finishes when everything is done.
 */
export function LoadingBar() {
  const navigation = useNavigation();
  const inFlight = useSyncExternalStore(subscribeActivity, getInFlightCount, () => 0);
  const busy = navigation.state !== 'idle' || inFlight > 0;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), rules.loadingBarThrottleMs);
    return () => clearTimeout(timer);
  }, [busy]);

  return (
    <div className="loading-bar" data-visible={visible} aria-hidden="true" style={{ ['--loading-duration' as string]: `${rules.loadingBarDurationMs}ms` }}>
      <div className="loading-bar__fill" />
    </div>
  );
}
