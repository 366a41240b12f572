import type { OptionsObject } from 'notistack';
import { useSyncExternalStore } from 'react';

/**
 * Toasts on their way to notistack, which loads on demand (src/app/shell/toaster.tsx): the first
 * toast asked for, a screen that will want one soon (the login form once touched) or a signed-in
 * person mounts it. Until it is there, toasts wait here, in order, and then show as they would
 * have (SPEC §4: a new toast replaces the one on screen). Keeps notistack out of the login
 * screen's first JavaScript (issue 13).
 */
export type ToastOptions = OptionsObject;
type Enqueue = (message: string, options: ToastOptions) => void;

let target: Enqueue | null = null;
const waiting: [string, ToastOptions][] = [];
let wanted = false;
const listeners = new Set<() => void>();

function want(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of [...listeners]) listener();
}

/** Shows a toast now, or as soon as the toast area has loaded. */
export function enqueueToast(message: string, options: ToastOptions): void {
  // Wanted from now on, also when it is already there (signed in): a sign-out must not unmount it under a toast.
  want();
  if (target) target(message, options);
  else waiting.push([message, options]);
}

/** Loads the toast area ahead of a toast that is likely to come. */
export const prepareToasts = (): void => want();

/** The toast area, once mounted, takes what waits and everything after; returns the disconnect. */
export function connectToasts(enqueue: Enqueue): () => void {
  target = enqueue;
  for (const [message, options] of waiting.splice(0)) enqueue(message, options);
  return () => {
    if (target === enqueue) target = null;
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
/** Whether the toast area should be loaded (a toast was asked for, or prepared). */
export const useToastsWanted = (): boolean => useSyncExternalStore(subscribe, () => wanted, () => wanted);

/** Tests: nothing waits, nothing is wanted, nothing connected. */
export function resetToastQueue(): void {
  target = null;
  waiting.length = 0;
  wanted = false;
}
