/**
 * When a replication starts. Small and free of RxDB and the contract, so the replica's lifecycle can
 * wait for the first screen before it loads the replication's code at all (issue 13).
 */

/** Starts the pulls at once (sign-in: the replica is empty and the screens wait for them). */
export function atOnce(start: () => void): () => void {
  start();
  return () => undefined;
}

/** How long a warm start leaves the first screen to itself before the pulls set up. */
export const FIRST_SCREEN_MS = 500;

/**
 * In a page opened with the replica already filled (a reload, an offline start): starts the pulls
 * after the first screen, then at the next idle moment (at most a second later). The screen reads
 * the replica first; the replication's code (the contract's parsers among it) and 17 replications
 * setting up their checkpoints, their leader election and their first requests (which fail at once
 * offline) no longer compete with it for the main thread and IndexedDB (issue 13). Outside a page
 * (tests, Node) at once.
 */
export function afterFirstScreen(start: () => void): () => void {
  if (typeof window === 'undefined') return atOnce(start);
  const idle = globalThis as { requestIdleCallback?: (run: () => void, options: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
  let idleId: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
    timer = undefined;
    // Safari has no requestIdleCallback: the delay alone.
    if (typeof idle.requestIdleCallback === 'function') idleId = idle.requestIdleCallback(start, { timeout: 1_000 });
    else start();
  }, FIRST_SCREEN_MS);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    if (idleId !== undefined) idle.cancelIdleCallback?.(idleId);
  };
}
