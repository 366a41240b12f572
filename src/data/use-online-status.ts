import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const getOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine);

/** True while the browser believes it is online. */
export const useOnlineStatus = (): boolean => useSyncExternalStore(subscribe, getOnline, () => true);
