import { createRef } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DrawingCanvas, type DrawingCanvasHandle } from '@/entries/components/drawing-canvas';

const canvasEl = () => screen.getByRole('img', { name: 'Drawing' }) as HTMLCanvasElement;
const marks = () => Number(canvasEl().dataset.marks);

/** A 2D context that records what was painted (jsdom has none). */
function fakeContext() {
  const calls: string[] = [];
  const record = (name: string) => () => void calls.push(name);
  const ctx = new Proxy({} as Record<string, unknown>, {
    get: (target, key: string) => (key in target ? target[key] : record(key)),
    set: (target, key: string, value) => {
      target[key] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
}

beforeEach(() => {
  // jsdom has no 2D context (as on a browser with canvas switched off): the component must cope.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  // user-event walks radio groups with CSS.escape, which jsdom lacks.
  if (typeof globalThis.CSS?.escape !== 'function') {
    Object.assign((globalThis.CSS ??= {} as typeof CSS), { escape: (value: string) => value.replace(/([^\w-])/g, '\\$1') });
  }
});

describe('DrawingCanvas', () => {
  it('is named "Drawing", says what it does and cannot be scrolled by a finger', () => {
    render(<DrawingCanvas />);
    const described = (canvasEl().getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');
    expect(described).toMatch(/Draw with your finger, a pen or a mouse.*no dragging needed.*Your drawing is empty\./);
    expect(canvasEl().className).toContain('drawing__canvas');
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('places a stamp at each tap in Stamps mode, with no dragging, and undo takes the last one off', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DrawingCanvas onChange={onChange} />);
    await user.click(screen.getByRole('radio', { name: 'Stamps' }));
    await user.click(screen.getByRole('radio', { name: 'Star' }));

    // A plain click: no pointerdown/move sequence is needed to add a mark.
    fireEvent.click(canvasEl(), { clientX: 40, clientY: 30 });
    fireEvent.click(canvasEl(), { clientX: 200, clientY: 100 });
    expect(marks()).toBe(2);
    expect(screen.getByRole('status').textContent).toBe('Your drawing has 2 marks.');
    expect(onChange.mock.lastCall?.[0]).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(marks()).toBe(1);
    expect(onChange.mock.lastCall?.[0]).toHaveLength(1);
  });

  it('lets a keyboard user place a stamp in the middle', async () => {
    const user = userEvent.setup();
    render(<DrawingCanvas />);
    await user.click(screen.getByRole('radio', { name: 'Pen' }));
    // Arrow keys walk the tool radios: Pen → Eraser → Stamps.
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect((screen.getByRole('radio', { name: 'Stamps' }) as HTMLInputElement).checked).toBe(true);
    const place = screen.getByRole('button', { name: 'Place heart in the middle' });
    place.focus();
    await user.keyboard('{Enter}');
    expect(marks()).toBe(1);
  });

  it('draws a stroke with a pointer (down, move, up) and a click in pen mode adds nothing more', () => {
    render(<DrawingCanvas />);
    fireEvent.pointerDown(canvasEl(), { pointerId: 1, clientX: 10, clientY: 10, button: 0 });
    fireEvent.pointerMove(canvasEl(), { pointerId: 1, clientX: 50, clientY: 40 });
    fireEvent.pointerUp(canvasEl(), { pointerId: 1, clientX: 50, clientY: 40 });
    fireEvent.click(canvasEl(), { clientX: 50, clientY: 40 });
    expect(marks()).toBe(1);
  });

  it('asks before clearing', async () => {
    const user = userEvent.setup();
    render(<DrawingCanvas />);
    await user.click(screen.getByRole('radio', { name: 'Stamps' }));
    await user.click(screen.getByRole('button', { name: /Place heart/ }));
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(marks()).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await user.click(screen.getByRole('button', { name: 'Yes, clear it' }));
    expect(marks()).toBe(0);
  });

  it('exports nothing without a canvas context (jsdom) and a PNG where there is one', async () => {
    const user = userEvent.setup();
    const ref = createRef<DrawingCanvasHandle>();
    const { unmount } = render(<DrawingCanvas ref={ref} />);
    await user.click(screen.getByRole('radio', { name: 'Stamps' }));
    await user.click(screen.getByRole('button', { name: /Place heart/ }));
    await expect(ref.current!.toBlob()).resolves.toBeNull();
    unmount();

    const { ctx, calls } = fakeContext();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(ctx as never);
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    const toBlob = vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => callback(png));
    render(<DrawingCanvas ref={ref} />);
    await expect(ref.current!.toBlob()).resolves.toBeNull(); // empty drawing: nothing to send
    await user.click(screen.getByRole('radio', { name: 'Stamps' }));
    await user.click(screen.getByRole('button', { name: /Place heart/ }));
    expect(calls).toContain('bezierCurveTo'); // the heart was painted
    await expect(ref.current!.toBlob()).resolves.toBe(png);
    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/png');
  });
});
