import { useCallback, useEffect, useId, useImperativeHandle, useRef, useState, type MouseEvent, type PointerEvent, type Ref } from 'react';
import {
  DRAWING_HEIGHT,
  DRAWING_WIDTH,
  PEN_COLOURS,
  PEN_SIZES,
  STAMPS,
  paintAll,
  paintStroke,
  type Mark,
  type Point,
  type StampShape,
} from './drawing-shapes';
import './entry.css';

export interface DrawingCanvasHandle {
  /** The drawing as a PNG on white (null when empty or when the browser cannot draw). */
  toBlob(): Promise<Blob | null>;
  /** How many marks (strokes and stamps) it has. */
  count(): number;
}

export interface DrawingCanvasProps {
  ref?: Ref<DrawingCanvasHandle>;
  /** Called with the marks after each change. */
  onChange?(marks: readonly Mark[]): void;
  /** The marks it opens with (a drawing kept on the device from before). */
  initialMarks?: readonly Mark[];
  /** An error to show under the drawing (from the save). */
  error?: string;
}

type Tool = 'pen' | 'eraser' | 'stamp';

const maxPixelRatio = 2;
const pixelRatio = () => Math.min(maxPixelRatio, Math.max(1, typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1));
const context2d = (canvas: HTMLCanvasElement | null): CanvasRenderingContext2D | null => {
  try {
    return canvas?.getContext('2d') ?? null;
  } catch {
    return null; // jsdom, or a browser with canvas switched off
  }
};

/**
 * A small drawing surface: pen, eraser and stamps with Pointer Events (finger, pen, mouse), undo
 * and clear. Stamps need only a tap or a button (WCAG 2.5.7: no drag is ever required). Marks are
 * kept as a list and repainted, so undo is exact and the canvas scales with the screen.
 */
export function DrawingCanvas({ ref, onChange, initialMarks, error }: DrawingCanvasProps) {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [marks, setMarks] = useState<readonly Mark[]>(initialMarks ?? []);
  const [tool, setTool] = useState<Tool>('pen');
  const [colour, setColour] = useState<string>(PEN_COLOURS[0].value);
  const [size, setSize] = useState<number>(PEN_SIZES[1].value);
  const [stamp, setStamp] = useState<StampShape>('heart');
  const [confirmClear, setConfirmClear] = useState(false);
  const current = useRef<{ pointerId: number; points: Point[] } | null>(null);
  const ratio = useRef(1);

  const repaint = useCallback((list: readonly Mark[]) => {
    const ctx = context2d(canvasRef.current);
    if (!ctx) return;
    ctx.setTransform(ratio.current, 0, 0, ratio.current, 0, 0);
    paintAll(ctx, list);
  }, []);

  // Pixel size follows the screen's density; the logical size stays the same.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    ratio.current = pixelRatio();
    canvas.width = DRAWING_WIDTH * ratio.current;
    canvas.height = DRAWING_HEIGHT * ratio.current;
  }, []);

  useEffect(() => {
    repaint(marks);
    onChange?.(marks);
  }, [marks, repaint, onChange]);

  useImperativeHandle(
    ref,
    () => ({
      count: () => marks.length,
      toBlob: () =>
        new Promise<Blob | null>((resolve) => {
          const canvas = canvasRef.current;
          if (!canvas || marks.length === 0 || !context2d(canvas)) {
            resolve(null);
            return;
          }
          const flat = document.createElement('canvas');
          flat.width = canvas.width;
          flat.height = canvas.height;
          const ctx = context2d(flat);
          if (!ctx) {
            resolve(null);
            return;
          }
          ctx.fillStyle = '#ffffff';
          ctx.fillRect(0, 0, flat.width, flat.height);
          ctx.drawImage(canvas, 0, 0);
          flat.toBlob((blob) => resolve(blob), 'image/png');
        }),
    }),
    [marks],
  );

  /** From screen pixels to the drawing's logical coordinates. */
  const pointOf = (event: { clientX: number; clientY: number }): Point => {
    const rect = canvasRef.current?.getBoundingClientRect();
    const width = rect && rect.width > 0 ? rect.width : DRAWING_WIDTH;
    const height = rect && rect.height > 0 ? rect.height : DRAWING_HEIGHT;
    const x = ((event.clientX - (rect?.left ?? 0)) * DRAWING_WIDTH) / width;
    const y = ((event.clientY - (rect?.top ?? 0)) * DRAWING_HEIGHT) / height;
    return { x: Math.min(DRAWING_WIDTH, Math.max(0, x)), y: Math.min(DRAWING_HEIGHT, Math.max(0, y)) };
  };

  const strokeOf = (points: readonly Point[]): Extract<Mark, { kind: 'stroke' }> => ({
    kind: 'stroke',
    colour,
    size: tool === 'eraser' ? size * 2 : size,
    erase: tool === 'eraser',
    points,
  });

  const add = (mark: Mark) => setMarks((list) => [...list, mark]);

  const placeStamp = (at: Point) => add({ kind: 'stamp', shape: stamp, colour, size, at });

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (tool === 'stamp' || current.current) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const point = pointOf(event);
    current.current = { pointerId: event.pointerId, points: [point] };
    const ctx = context2d(canvasRef.current);
    if (ctx) paintStroke(ctx, strokeOf([point]));
  };

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = current.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    const native = event.nativeEvent;
    const events = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    const ctx = context2d(canvasRef.current);
    for (const each of events.length > 0 ? events : [native]) {
      const point = pointOf(each);
      const last = stroke.points[stroke.points.length - 1] ?? point;
      stroke.points.push(point);
      if (ctx) paintStroke(ctx, strokeOf([last, point]));
    }
  };

  const endStroke = (event: PointerEvent<HTMLCanvasElement>) => {
    const stroke = current.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    current.current = null;
    add(strokeOf(stroke.points));
  };

  const onClick = (event: MouseEvent<HTMLCanvasElement>) => {
    if (tool === 'stamp') placeStamp(pointOf(event));
  };

  const undo = () => setMarks((list) => list.slice(0, -1));
  const clear = () => {
    setMarks([]);
    setConfirmClear(false);
  };

  const stampName = STAMPS.find((s) => s.id === stamp)?.name ?? 'Stamp';
  const status = marks.length === 0 ? 'Your drawing is empty.' : `Your drawing has ${marks.length} ${marks.length === 1 ? 'mark' : 'marks'}.`;

  return (
    <div className={`drawing${error ? ' drawing--invalid' : ''}`}>
      <p id={`${id}-help`} className="field__hint">
        Draw with your finger, a pen or a mouse. Or choose Stamps and tap the page to place a shape: no dragging needed. With a
        keyboard, choose a stamp and press “Place {stampName.toLowerCase()} in the middle”.
      </p>

      <div className="drawing__tools">
        <fieldset className="drawing__group">
          <legend>Tool</legend>
          {(
            [
              ['pen', 'Pen'],
              ['eraser', 'Eraser'],
              ['stamp', 'Stamps'],
            ] as const
          ).map(([value, name]) => (
            <label key={value} className="pill">
              <input type="radio" name={`${id}-tool`} value={value} checked={tool === value} onChange={() => setTool(value)} />
              <span>{name}</span>
            </label>
          ))}
        </fieldset>

        <fieldset className="drawing__group">
          <legend>Colour</legend>
          {PEN_COLOURS.map((c) => (
            <label key={c.id} className="swatch" title={c.name}>
              <input type="radio" name={`${id}-colour`} value={c.value} checked={colour === c.value} onChange={() => setColour(c.value)} />
              <span className="swatch__dot" style={{ backgroundColor: c.value }} aria-hidden="true" />
              <span className="visually-hidden">{c.name}</span>
            </label>
          ))}
        </fieldset>

        <fieldset className="drawing__group">
          <legend>Size</legend>
          {PEN_SIZES.map((s) => (
            <label key={s.id} className="pill">
              <input type="radio" name={`${id}-size`} value={s.value} checked={size === s.value} onChange={() => setSize(s.value)} />
              <span>{s.name}</span>
            </label>
          ))}
        </fieldset>

        {tool === 'stamp' ? (
          <fieldset className="drawing__group">
            <legend>Stamp</legend>
            {STAMPS.map((s) => (
              <label key={s.id} className="pill">
                <input type="radio" name={`${id}-stamp`} value={s.id} checked={stamp === s.id} onChange={() => setStamp(s.id)} />
                <span aria-hidden="true">{s.symbol}</span> <span>{s.name}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
      </div>

      <canvas
        ref={canvasRef}
        className={`drawing__canvas drawing__canvas--${tool}`}
        role="img"
        aria-label="Drawing"
        aria-describedby={`${id}-help ${id}-status${error ? ` ${id}-error` : ''}`}
        data-marks={marks.length}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endStroke}
        onPointerCancel={endStroke}
        onLostPointerCapture={endStroke}
        onClick={onClick}
      />

      <p id={`${id}-status`} className="drawing__status" role="status">
        {status}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}

      <div className="actions">
        {tool === 'stamp' ? (
          <button type="button" className="button button--secondary" onClick={() => placeStamp({ x: DRAWING_WIDTH / 2, y: DRAWING_HEIGHT / 2 })}>
            Place {stampName.toLowerCase()} in the middle
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={undo} disabled={marks.length === 0}>
          Undo
        </button>
        {confirmClear ? (
          <span className="drawing__confirm" role="group" aria-label="Clear the drawing?">
            <span>Clear the whole drawing?</span>
            <button type="button" className="button button--primary" onClick={clear}>
              Yes, clear it
            </button>
            <button type="button" className="button button--secondary" onClick={() => setConfirmClear(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button type="button" className="button button--ghost" onClick={() => setConfirmClear(true)} disabled={marks.length === 0}>
            Clear
          </button>
        )}
      </div>
    </div>
  );
}
