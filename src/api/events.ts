/**
 * What the HTTP client tells the rest of the app, without importing it: the session store listens
 * for expiry, the shell shows the 419 toast and drives the loading bar from the in-flight count.
 */
type Listener<T> = (value: T) => void;

function channel<T>() {
  const listeners = new Set<Listener<T>>();
  return {
    subscribe(listener: Listener<T>): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(value: T): void {
      for (const listener of [...listeners]) listener(value);
    },
  };
}

/** 401 or 419: the server no longer knows this session. */
export const sessionExpired = channel<{ status: 401 | 419 }>();
/** 419: show "Session expired" (the shell dedupes while one is showing). */
export const csrfExpired = channel<void>();

let inFlight = 0;
const activity = channel<number>();

export const subscribeActivity = activity.subscribe;
export const getInFlightCount = (): number => inFlight;

export function trackRequest(delta: 1 | -1): void {
  inFlight = Math.max(0, inFlight + delta);
  activity.emit(inFlight);
}
