import { useEffect, useState } from 'react';

/** A readable service worker state ("Not supported", "Not registered", "activated"...). */
export function useServiceWorkerState(): string {
  const [state, setState] = useState('Checking…');
  useEffect(() => {
    let live = true;
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) {
      setState('Not supported');
      return;
    }
    void container
      .getRegistration()
      .then((registration) => {
        if (!live) return;
        const worker = registration?.active ?? registration?.waiting ?? registration?.installing;
        setState(worker ? `${worker.state}${container.controller ? ', controlling this page' : ''}` : 'Not registered');
      })
      .catch(() => live && setState('Unavailable'));
    return () => {
      live = false;
    };
  }, []);
  return state;
}
