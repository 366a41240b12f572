import { vi } from 'vitest';

import { WAIT_MS } from './timeouts';

export { WAIT_MS };

// Tests poll for the state they need (waitUntil / findBy*), never sleep for a guessed time.

type WaitOptions = { timeout?: number; interval?: number };

/**
 * vi.waitFor with the shared budget: retries `fn` until it stops throwing (or its promise resolves)
 * and does not answer `false`. vi.waitFor alone takes a returned `false` as done, so a predicate
 * such as `waitUntil(() => a === b)` returned at once without waiting for anything.
 */
export function waitUntil<T>(fn: () => T | Promise<T>, options: WaitOptions = {}): Promise<Exclude<T, false>> {
  return vi.waitFor(
    async () => {
      const value = await fn();
      if (value === false) throw new Error(`still false: ${fn.toString().slice(0, 200)}`);
      return value as Exclude<T, false>;
    },
    { timeout: WAIT_MS, interval: 50, ...options },
  );
}
