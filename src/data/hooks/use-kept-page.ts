import { useEffect, useRef } from 'react';
import type { Live } from './use-live';

/**
 * A list shown a page at a time: while a bigger page loads (a new query, so the live hook briefly
 * has nothing), the page on screen stays, instead of a flash of "Loading…" that would also drop the
 * keyboard focus from "Load more". `waiting` says a bigger page is on its way.
 */
export function useKeptPage<P extends { readonly items: readonly unknown[] }>(live: Live<P>): { page: P; loading: boolean; waiting: boolean } {
  const kept = useRef<P | null>(null);
  useEffect(() => {
    if (!live.loading) kept.current = live.data;
  });
  const previous = kept.current;
  if (live.loading && previous && previous.items.length > 0) return { page: previous, loading: false, waiting: true };
  return { page: live.data, loading: live.loading, waiting: false };
}
