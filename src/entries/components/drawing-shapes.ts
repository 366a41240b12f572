/**
 * The drawing's marks and how to paint them. Pure data plus one painter, so the canvas can be
 * redrawn from the list after an undo (and tested without a real canvas).
 */

export const DRAWING_WIDTH = 600;
export const DRAWING_HEIGHT = 400;

export const PEN_COLOURS = [
  { id: 'ink', name: 'Black', value: '#1f1b24' },
  { id: 'red', name: 'Red', value: '#c62828' },
  { id: 'orange', name: 'Orange', value: '#e65100' },
  { id: 'yellow', name: 'Yellow', value: '#f9a825' },
  { id: 'green', name: 'Green', value: '#2e7d32' },
  { id: 'blue', name: 'Blue', value: '#1565c0' },
  { id: 'purple', name: 'Purple', value: '#6a1b9a' },
  { id: 'pink', name: 'Pink', value: '#d81b60' },
] as const;

export const PEN_SIZES = [
  { id: 'thin', name: 'Thin', value: 3 },
  { id: 'medium', name: 'Medium', value: 8 },
  { id: 'thick', name: 'Thick', value: 16 },
] as const;

export const STAMPS = [
  { id: 'heart', name: 'Heart', symbol: '♥' },
  { id: 'star', name: 'Star', symbol: '★' },
  { id: 'circle', name: 'Circle', symbol: '●' },
  { id: 'smiley', name: 'Smiley', symbol: '☺' },
] as const;

export type StampShape = (typeof STAMPS)[number]['id'];

export interface Point {
  readonly x: number;
  readonly y: number;
}

export type Mark =
  | { readonly kind: 'stroke'; readonly colour: string; readonly size: number; readonly erase: boolean; readonly points: readonly Point[] }
  | { readonly kind: 'stamp'; readonly shape: StampShape; readonly colour: string; readonly size: number; readonly at: Point };

const tenth = (n: number): number => Math.round(n * 10) / 10;

/** The marks as a draft keeps them: every coordinate to a tenth of a logical pixel. */
export function keptMarks(marks: readonly Mark[]): Mark[] {
  return marks.map((mark) =>
    mark.kind === 'stroke' ? { ...mark, points: mark.points.map((p) => ({ x: tenth(p.x), y: tenth(p.y) })) } : { ...mark, at: { x: tenth(mark.at.x), y: tenth(mark.at.y) } },
  );
}

/** Stamps are this many times the pen size across (at least 36 logical pixels). */
export const stampRadius = (size: number): number => Math.max(18, size * 3);

export function paintStroke(ctx: CanvasRenderingContext2D, mark: Extract<Mark, { kind: 'stroke' }>): void {
  const [first, ...rest] = mark.points;
  if (!first) return;
  ctx.save();
  ctx.globalCompositeOperation = mark.erase ? 'destination-out' : 'source-over';
  ctx.strokeStyle = mark.colour;
  ctx.fillStyle = mark.colour;
  ctx.lineWidth = mark.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  if (rest.length === 0) {
    ctx.beginPath();
    ctx.arc(first.x, first.y, mark.size / 2, 0, Math.PI * 2);
    ctx.fill();
  } else {
    ctx.beginPath();
    ctx.moveTo(first.x, first.y);
    for (const point of rest) ctx.lineTo(point.x, point.y);
    ctx.stroke();
  }
  ctx.restore();
}

function paintStamp(ctx: CanvasRenderingContext2D, mark: Extract<Mark, { kind: 'stamp' }>): void {
  const r = stampRadius(mark.size);
  const { x, y } = mark.at;
  ctx.save();
  ctx.globalCompositeOperation = 'source-over';
  ctx.fillStyle = mark.colour;
  ctx.strokeStyle = mark.colour;
  ctx.lineWidth = Math.max(3, r / 6);
  ctx.beginPath();
  switch (mark.shape) {
    case 'heart':
      ctx.moveTo(x, y + r * 0.9);
      ctx.bezierCurveTo(x - r * 1.4, y - r * 0.1, x - r * 0.6, y - r * 1.1, x, y - r * 0.35);
      ctx.bezierCurveTo(x + r * 0.6, y - r * 1.1, x + r * 1.4, y - r * 0.1, x, y + r * 0.9);
      ctx.fill();
      break;
    case 'star':
      for (let i = 0; i < 10; i += 1) {
        const angle = -Math.PI / 2 + (i * Math.PI) / 5;
        const radius = i % 2 === 0 ? r : r * 0.45;
        const px = x + Math.cos(angle) * radius;
        const py = y + Math.sin(angle) * radius;
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      }
      ctx.closePath();
      ctx.fill();
      break;
    case 'circle':
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.stroke();
      break;
    case 'smiley':
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x - r * 0.35, y - r * 0.25, r * 0.12, 0, Math.PI * 2);
      ctx.arc(x + r * 0.35, y - r * 0.25, r * 0.12, 0, Math.PI * 2);
      ctx.fill();
      ctx.beginPath();
      ctx.arc(x, y + r * 0.05, r * 0.55, 0.15 * Math.PI, 0.85 * Math.PI);
      ctx.stroke();
      break;
  }
  ctx.restore();
}

/** Clears and paints every mark in order (logical coordinates; the caller sets the pixel scale). */
export function paintAll(ctx: CanvasRenderingContext2D, marks: readonly Mark[]): void {
  ctx.clearRect(0, 0, DRAWING_WIDTH, DRAWING_HEIGHT);
  for (const mark of marks) {
    if (mark.kind === 'stroke') paintStroke(ctx, mark);
    else paintStamp(ctx, mark);
  }
}
