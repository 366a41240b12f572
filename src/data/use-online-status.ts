import { useSyncExternalStore } from 'react';
import { isOnline, subscribeReachability } from '@/api/reachability';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  const unsubscribe = subscribeReachability(listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    unsubscribe();
  };
}

/**
 * True while the browser believes it is online and Hearth's server answers there (a Wi-Fi that is
 * connected but reaches nothing counts as offline: src/api/reachability.ts).
 */
export const useOnlineStatus = (): boolean => useSyncExternalStore(subscribe, isOnline, () => true);
