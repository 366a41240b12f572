/**
 * SPEC §4 says a new toast replaces the one on screen, and that a 419 shows "Session expired" once.
 * Both at once would hide the second: the request that got the 419 usually shows its own error in
 * the same moment, and "Session expired" would vanish before anyone could read it (or a screen
 * reader could say it). So the session toast holds the screen for SESSION_TOAST_HOLD_MS: a toast
 * asked for meanwhile waits and then replaces it as usual; of several that wait, the newest is
 * shown (it would have replaced the others anyway). Dismissing the held toast ends the hold at once.
 * See docs/decisions.md "Shell gaps (issue 11)".
 */
export const SESSION_TOAST_HOLD_MS = 3000;

let heldUntil = 0;
let waiting: (() => void) | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function showWaiting(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  heldUntil = 0;
  const show = waiting;
  waiting = null;
  show?.();
}

/** Keeps the toast now on screen for at least `ms`. */
export function holdToasts(ms: number): void {
  heldUntil = Date.now() + ms;
}

/** The held toast was dismissed (or went): what waits may show now. */
export function releaseToasts(): void {
  if (heldUntil === 0 && !waiting) return;
  showWaiting();
}

/** Shows a toast now, or once the hold ends. */
export function showToast(show: () => void): void {
  const wait = heldUntil - Date.now();
  if (wait <= 0) {
    heldUntil = 0;
    show();
    return;
  }
  waiting = show;
  if (timer) clearTimeout(timer);
  timer = setTimeout(showWaiting, wait);
}

/** Tests: no hold, nothing waiting. */
export function resetToastHold(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  heldUntil = 0;
  waiting = null;
}
