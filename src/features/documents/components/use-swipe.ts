import { useRef, type PointerEvent } from 'react';

/** A horizontal swipe at least this long (CSS pixels) and mostly horizontal turns the page. */
const SWIPE_MIN = 60;

/**
 * Pointer handlers that turn a left swipe into "next" and a right swipe into "previous" (touch and
 * pen; a mouse drag does not, so text can still be selected). The element should allow vertical
 * panning only (`touch-action: pan-y`) so the browser hands horizontal moves to the page.
 */
export function useSwipe({ onPrevious, onNext }: { onPrevious: () => void; onNext: () => void }) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.pointerType === 'mouse' || !event.isPrimary) return;
      start.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) < SWIPE_MIN || Math.abs(dx) < Math.abs(dy) * 1.5) return;
      if (dx < 0) onNext();
      else onPrevious();
    },
    onPointerCancel() {
      start.current = null;
    },
  };
}
