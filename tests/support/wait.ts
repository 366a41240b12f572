import { vi } from 'vitest';

import { WAIT_MS } from './timeouts';

export { WAIT_MS };

// Tests poll for the state they need (waitUntil / findBy*), never sleep for a guessed time.

type WaitOptions = { timeout?: number; interval?: number };

/** vi.waitFor with the shared budget: retries `fn` until it stops throwing (or its promise resolves). */
export function waitUntil<T>(fn: () => T | Promise<T>, options: WaitOptions = {}): Promise<T> {
  return vi.waitFor(fn, { timeout: WAIT_MS, interval: 50, ...options });
}
