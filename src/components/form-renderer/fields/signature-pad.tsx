import { useEffect, useImperativeHandle, useRef, useState, type PointerEvent, type Ref } from 'react';
import { PAD_HEIGHT, PAD_WIDTH, context2d, drawnSignaturePng, type StrokePoint } from '../signature-png';

export interface SignaturePadHandle {
  toPng(): Promise<Blob>;
  clear(): void;
}

interface SignaturePadProps {
  ref?: Ref<SignaturePadHandle>;
  /** The number of strokes after each change. */
  onStrokes(count: number): void;
  disabled: boolean;
  describedBy: string;
}

const pixelRatio = () => Math.min(2, Math.max(1, window.devicePixelRatio || 1));

const paint = (ctx: CanvasRenderingContext2D, points: readonly StrokePoint[]) => {
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
  // A tap is a dot: a zero-length line would paint nothing.
  if (points.length === 1 && points[0]) ctx.lineTo(points[0].x + 0.1, points[0].y);
  ctx.stroke();
};

/** The pad's context set up for ink in logical units, or null where the canvas cannot draw. */
const inkContext = (canvas: HTMLCanvasElement | null, ratio: number) => {
  const ctx = context2d(canvas);
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.strokeStyle = '#1f1b24';
  ctx.lineWidth = 3;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  return ctx;
};

/**
 * A pointer-drawing pad (finger, pen or mouse) on a <canvas>. Strokes are kept as points in the
 * pad's logical units and repainted, so the picture follows the screen's density and can be made
 * into a PNG even where the canvas cannot draw (jsdom, canvas switched off). Keyboard and
 * switch users sign with "Type your name instead" (WCAG 2.1.1, 2.5.7): the pad is never the only way.
 */
export function SignaturePad({ ref, onStrokes, disabled, describedBy }: SignaturePadProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [strokes, setStrokes] = useState<readonly (readonly StrokePoint[])[]>([]);
  const current = useRef<{ pointerId: number; points: StrokePoint[] } | null>(null);
  const ratio = useRef(1);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    ratio.current = pixelRatio();
    el.width = PAD_WIDTH * ratio.current;
    el.height = PAD_HEIGHT * ratio.current;
  }, []);

  useEffect(() => {
    const ctx = inkContext(canvas.current, ratio.current);
    if (ctx) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, PAD_WIDTH, PAD_HEIGHT);
      for (const stroke of strokes) paint(ctx, stroke);
    }
    onStrokes(strokes.length);
  }, [strokes, onStrokes]);

  useImperativeHandle(ref, () => ({ toPng: () => drawnSignaturePng(canvas.current, strokes), clear: () => setStrokes([]) }), [strokes]);

  const pointOf = (event: { clientX: number; clientY: number }): StrokePoint => {
    const rect = canvas.current?.getBoundingClientRect();
    const width = rect && rect.width > 0 ? rect.width : PAD_WIDTH;
    const height = rect && rect.height > 0 ? rect.height : PAD_HEIGHT;
    const x = ((event.clientX - (rect?.left ?? 0)) * PAD_WIDTH) / width;
    const y = ((event.clientY - (rect?.top ?? 0)) * PAD_HEIGHT) / height;
    return { x: Math.min(PAD_WIDTH, Math.max(0, x)), y: Math.min(PAD_HEIGHT, Math.max(0, y)) };
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (disabled || current.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    current.current = { pointerId: event.pointerId, points: [pointOf(event)] };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = current.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    const native = event.nativeEvent;
    const events = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    for (const each of events.length > 0 ? events : [native]) stroke.points.push(pointOf(each));
    const ctx = inkContext(canvas.current, ratio.current);
    if (ctx) paint(ctx, stroke.points.slice(-1 - Math.max(1, events.length)));
  };
  const endStroke = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = current.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    current.current = null;
    setStrokes((list) => [...list, stroke.points]);
  };

  return (
    <canvas
      ref={canvas}
      className="form-signature__pad"
      role="img"
      aria-label="Signature pad: draw your signature with a finger, a pen or a mouse"
      aria-describedby={describedBy}
      data-strokes={strokes.length}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endStroke}
      onPointerCancel={endStroke}
      onLostPointerCapture={endStroke}
    />
  );
}
