import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { heldValue, holdValue } from '@/data/held-layout';

/**
 * Widths within 40px of each other share a shape (a phone turned round does not). Read once and
 * again only after a resize: `innerWidth` read while React renders a screen forced a layout of the
 * whole page in the middle of that task, once per region mounted after a commit (issue 13: 12-17 ms
 * of a 41 ms task of the warm dashboard's start in Lighthouse traces).
 */
let bucket: number | null = null;
function widthBucket(): number {
  if (typeof window === 'undefined') return 0;
  if (bucket === null) {
    bucket = Math.round(window.innerWidth / 40) * 40;
    window.addEventListener('resize', () => (bucket = null), { once: true, passive: true });
  }
  return bucket;
}
const keyFor = (name: string): string => `${name}@${widthBucket()}`;

/**
 * Reserves, while `loading`, the height this region had the last time it showed its content here
 * (src/data/held-layout.ts), so what follows it does not move when the replica's data arrives, and
 * records the height whenever it shows content. Returns the ref and the style for the region's
 * element. Nothing is reserved on a first visit (no height on record).
 */
export function useHeldHeight(name: string, loading: boolean): { ref: (element: HTMLElement | null) => void; style: CSSProperties | undefined } {
  const key = keyFor(name);
  const [reserved] = useState(() => heldValue(key));
  // The element in a ref, not in state: a state setter as the callback ref made an urgent update in
  // every commit that mounted a region, and React then ran the whole screen's effects in that same
  // task (issue 13: the dashboard's longest task at a start).
  const element = useRef<HTMLElement | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((next: HTMLElement | null) => {
    element.current = next;
    // Another element while measuring: measure that one instead.
    observer.current?.disconnect();
    if (next) observer.current?.observe(next);
  }, []);

  useEffect(() => {
    if (loading || typeof ResizeObserver === 'undefined') return;
    const watching = new ResizeObserver(() => {
      if (element.current) holdValue(key, element.current.getBoundingClientRect().height);
    });
    observer.current = watching;
    if (element.current) watching.observe(element.current);
    return () => {
      watching.disconnect();
      observer.current = null;
    };
  }, [key, loading]);

  // The extra room stays at the end (a grid's rows would otherwise stretch into it).
  return { ref, style: loading && reserved !== null ? { minHeight: `${reserved}px`, alignContent: 'start' } : undefined };
}

/**
 * Whether a part that shows only with some data (a filter with its choices) was there last time:
 * while `loading`, that answer (so its place is kept, or not taken, before the data says); once
 * loaded, `present` itself, recorded for next time.
 */
export function useHeldPresence(name: string, loading: boolean, present: boolean): boolean {
  const key = keyFor(name);
  const [before] = useState(() => heldValue(key) === 1);
  useEffect(() => {
    if (!loading) holdValue(key, present ? 1 : 0);
  }, [key, loading, present]);
  return loading ? before : present;
}

/** The longest a screen keeps a part back for another that would move it when it came (a pull that stalls). */
export const TOGETHER_MAX_MS = 6000;

/**
 * `waiting`, for at most TOGETHER_MAX_MS: a part that would be pushed down by one still loading shows
 * once that one is in, or when waiting longer is worse than a shift. The clock runs only while
 * waiting, so a screen with nothing to wait for is not rendered again when it would have run out.
 */
export function useWaitAtMost(waiting: boolean): boolean {
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    if (!waiting || waited) return;
    const timer = setTimeout(() => setWaited(true), TOGETHER_MAX_MS);
    return () => clearTimeout(timer);
  }, [waiting, waited]);
  return waiting && !waited;
}

/**
 * A screen of several regions that have no shape on record here (the first visit on this device, or
 * the first after signing in: sign-out forgets the shapes) shows them together: true while any of them
 * is `loading` (useWaitAtMost), and the screen shows one "Loading…" in their place. One at a time,
 * each that arrived pushed the others down (issue 13: a shift of 0.5 on a phone's dashboard after
 * signing in). With shapes on record this is false and each region holds its own (useHeldHeight).
 */
export function useFirstShownTogether(names: readonly string[], loading: boolean): boolean {
  const [first] = useState(() => names.some((name) => heldValue(keyFor(name)) === null));
  return useWaitAtMost(first && loading);
}
