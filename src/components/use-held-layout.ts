import { useEffect, useState, type CSSProperties } from 'react';
import { heldValue, holdValue } from '@/data/held-layout';

/** Widths within 40px of each other share a shape (a phone turned round does not). */
const widthBucket = (): number => (typeof window === 'undefined' ? 0 : Math.round(window.innerWidth / 40) * 40);
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
  // A state setter as the callback ref: stable, and the effect below follows the element.
  const [observed, ref] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (loading || !observed || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => holdValue(key, observed.getBoundingClientRect().height));
    observer.observe(observed);
    return () => observer.disconnect();
  }, [key, loading, observed]);

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
