import { isOnline, onReachableAgain } from '../reachability';

/**
 * When the change stream tries again after EventSource gave up on it (./change-stream.ts): the
 * nominal wait doubles from REOPEN_FIRST_MS with each try that fails, up to REOPEN_MAX_MS (the
 * periodic pull's 5 minutes: beyond that the pull finds changes sooner than a stream would), and
 * the actual wait is a random point in its second half, so a home's tablets that lost their streams
 * in the same second (a deploy) do not all come back in one.
 */
export const REOPEN_FIRST_MS = 5_000;
export const REOPEN_MAX_MS = 5 * 60_000;

/** The wait before the try after `failures` failed ones (0: the first try). */
export function reopenDelayMs(failures: number, random: () => number = Math.random): number {
  const nominal = Math.min(REOPEN_MAX_MS, REOPEN_FIRST_MS * 2 ** Math.min(failures, 30));
  return Math.round(nominal * (0.5 + random() / 2));
}

/**
 * Runs `then` now when the server is reachable (src/api/reachability.ts); otherwise once it answers
 * again, or once the browser comes back online, whichever is first: a try before then would fail
 * for nothing. Returns the cancel.
 */
export function whenReachable(then: () => void): () => void {
  if (isOnline()) {
    then();
    return () => undefined;
  }
  const hasWindow = typeof window !== 'undefined';
  let stopReach: () => void = () => undefined;
  const stop = () => {
    stopReach();
    if (hasWindow) window.removeEventListener('online', go);
  };
  function go(): void {
    stop();
    then();
  }
  stopReach = onReachableAgain(go);
  if (hasWindow) window.addEventListener('online', go);
  return stop;
}
