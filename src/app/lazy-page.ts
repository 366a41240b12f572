import type { ComponentType } from 'react';
import { rules } from '@/contract/rules';
import { yieldToMain } from '@/lib/yield-to-main';

export const CHUNK_RELOAD_KEY = 'hearth.chunkReloadAt';

/** A lazy route's chunk failed to load (usually a new build replaced the old files, or offline). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

function reloadAllowed(now: number): boolean {
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (now - last < rules.chunkReloadGuardMs) return false;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

/** Where a navigation in progress is going (the router says; ./app.tsx sets it), or null. */
let destination: () => string | null = () => null;

export function setNavigationDestination(read: () => string | null): void {
  destination = read;
}

/**
 * The reload after a chunk failed: to the address the person was going to. The router changes the
 * address only once the page's chunk is in, so a plain reload brought back the screen they had
 * just left, and their tap was lost (seen offline in e2e: a chunk the worker serves, aborted once).
 */
function reloadTowardsDestination(): void {
  const target = destination();
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  if (target && target !== here) window.location.assign(target);
  else window.location.reload();
}

/**
 * The `lazy` of a route: loads the page's chunk. On failure the page reloads once (at most every
 * 10 s, SPEC §4/§9), at the address being opened; otherwise the route's error element explains.
 *
 * The chunk is asked for after a yield: the bundler's preload helper adds a `modulepreload` link
 * per chunk the page imports, and at a start that ran in the router's first navigation, one task of
 * about 50 ms here under Lighthouse (a third of it the links' insertion), four times that on a
 * cheap phone (docs/decisions.md "A route's chunk in a task of its own").
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => {
    try {
      await yieldToMain();
      return { Component: pick(await load()) };
    } catch (error) {
      if (reloadAllowed(Date.now())) {
        reloadTowardsDestination();
        return new Promise<never>(() => undefined);
      }
      throw new ChunkLoadError(error instanceof Error ? error.message : String(error));
    }
  };
}
