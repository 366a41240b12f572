/**
 * Held layout (issue 13): a region keeps, while the replica opens again, the height it had when it
 * last showed its content here; a part shown only with some data keeps its place if it was there;
 * regions with no shape on record show together; all are forgotten at sign-out.
 */
import { act, render } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOGETHER_MAX_MS, useFirstShownTogether, useHeldHeight, useHeldPresence, useWaitAtMost } from '@/components/use-held-layout';
import { forgetHeldLayout, HELD_LAYOUT_KEY } from '@/data/held-layout';
import { setAccount } from '@/data/session-store';
import { clearLocalSession } from '@/data/sign-out';
import { makeAccount } from './support/account';

/** jsdom has no layout: a ResizeObserver that reports the height the test gives the element. */
const observed = new Set<{ callback: ResizeObserverCallback; element: Element }>();
class FakeResizeObserver {
  private entry: { callback: ResizeObserverCallback; element: Element } | null = null;
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(element: Element) {
    this.entry = { callback: this.callback, element };
    observed.add(this.entry);
  }
  disconnect() {
    if (this.entry) observed.delete(this.entry);
  }
  unobserve() {}
}
function resize(element: Element, height: number) {
  vi.spyOn(element, 'getBoundingClientRect').mockReturnValue({ height } as DOMRect);
  for (const entry of [...observed]) if (entry.element === element) entry.callback([], {} as ResizeObserver);
}

function Region({ loading }: { loading: boolean }) {
  const held = useHeldHeight('test.region', loading);
  return (
    <section data-testid="region" ref={held.ref} style={held.style}>
      {loading ? 'Loading…' : 'content'}
    </section>
  );
}

function Part({ loading, present }: { loading: boolean; present: boolean }) {
  return useHeldPresence('test.part', loading, present) ? <p>part</p> : null;
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  forgetHeldLayout();
});
afterEach(() => {
  forgetHeldLayout();
});

describe('useHeldHeight', () => {
  it('reserves nothing the first time; then, while loading, the height the content last had', () => {
    const first = render(<Region loading />);
    expect(first.getByTestId('region').style.minHeight).toBe('');
    first.rerender(<Region loading={false} />);
    act(() => resize(first.getByTestId('region'), 312.4));
    first.unmount();

    const again = render(<Region loading />);
    expect(again.getByTestId('region').style.minHeight).toBe('312px');
    // Its content arrives: nothing reserved any more (the content is what it is).
    again.rerender(<Region loading={false} />);
    expect(again.getByTestId('region').style.minHeight).toBe('');
  });

  it('records nothing while loading (the loading text is not the shape)', () => {
    const view = render(<Region loading />);
    act(() => resize(view.getByTestId('region'), 40));
    view.unmount();
    expect(render(<Region loading />).getByTestId('region').style.minHeight).toBe('');
  });
});

describe('useHeldHeight, when a region mounts', () => {
  it('renders it once: the element it measures is no state (an urgent update in the commit ran the screen\'s effects with it)', () => {
    let commits = 0;
    render(
      <Profiler id="region" onRender={() => void commits++}>
        <Region loading={false} />
      </Profiler>,
    );
    expect(commits).toBe(1);
  });

  it('measures the element that replaced the first one while its content shows', () => {
    function Swapping({ which }: { which: 'a' | 'b' }) {
      const held = useHeldHeight('test.swap', false);
      return which === 'a' ? <section key="a" data-testid="a" ref={held.ref} /> : <div key="b" data-testid="b" ref={held.ref} />;
    }
    const view = render(<Swapping which="a" />);
    view.rerender(<Swapping which="b" />);
    act(() => resize(view.getByTestId('b'), 150));
    view.unmount();
    expect(render(<Region loading />).getByTestId('region').style.minHeight).toBe('');
    function SwapRegion() {
      const held = useHeldHeight('test.swap', true);
      return <section data-testid="again" ref={held.ref} style={held.style} />;
    }
    expect(render(<SwapRegion />).getByTestId('again').style.minHeight).toBe('150px');
  });
});

describe('the width a shape is kept for', () => {
  it('is read once for every region of a screen (a read while rendering forces a layout), and again after a resize', () => {
    const width = vi.spyOn(window, 'innerWidth', 'get');
    window.dispatchEvent(new Event('resize')); // whatever an earlier test read is stale now
    width.mockReturnValue(412);
    function Screen() {
      const a = useHeldHeight('test.a', true);
      const b = useHeldHeight('test.b', true);
      return <section ref={a.ref}><div ref={b.ref} /></section>;
    }
    const view = render(<Screen />);
    view.rerender(<Screen />);
    expect(width).toHaveBeenCalledTimes(1);

    // Turned round: the other width's shapes.
    view.unmount();
    const before = render(<Region loading={false} />);
    act(() => resize(before.getByTestId('region'), 80));
    before.unmount();
    width.mockReturnValue(915);
    window.dispatchEvent(new Event('resize'));
    const after = render(<Region loading={false} />);
    act(() => resize(after.getByTestId('region'), 500));
    expect(width).toHaveBeenCalledTimes(2);
    expect(Object.keys(JSON.parse(localStorage.getItem(HELD_LAYOUT_KEY) ?? '{}'))).toEqual(['test.region@400', 'test.region@920']);
    width.mockRestore();
  });
});

describe('useHeldPresence', () => {
  it('while loading, keeps the place of a part that was there last time, and not of one that was not', () => {
    const first = render(<Part loading={false} present />);
    first.unmount();
    expect(render(<Part loading present={false} />).container.textContent).toBe('part');
    const gone = render(<Part loading={false} present={false} />);
    expect(gone.container.textContent).toBe('');
    gone.unmount();
    expect(render(<Part loading present={false} />).container.textContent).toBe('');
  });
});

function Together({ loading }: { loading: boolean }) {
  return <p>{useFirstShownTogether(['test.region', 'test.other'], loading) ? 'waiting' : 'shown'}</p>;
}

describe('useWaitAtMost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function Waiting({ waiting }: { waiting: boolean }) {
    return <p>{useWaitAtMost(waiting) ? 'waiting' : 'shown'}</p>;
  }

  it('waits while asked to, for at most TOGETHER_MAX_MS from when it mounted (a pull that stalls)', () => {
    vi.useFakeTimers();
    const view = render(<Waiting waiting />);
    act(() => vi.advanceTimersByTime(TOGETHER_MAX_MS - 1));
    expect(view.container.textContent).toBe('waiting');
    act(() => vi.advanceTimersByTime(1));
    expect(view.container.textContent).toBe('shown');
  });

  it('does not wait once what it waited for is in, and then renders nothing more when the time would have run out', () => {
    vi.useFakeTimers();
    let commits = 0;
    const view = render(
      <Profiler id="waiting" onRender={() => void commits++}>
        <Waiting waiting />
      </Profiler>,
    );
    view.rerender(
      <Profiler id="waiting" onRender={() => void commits++}>
        <Waiting waiting={false} />
      </Profiler>,
    );
    expect(view.container.textContent).toBe('shown');
    const before = commits;
    act(() => vi.advanceTimersByTime(TOGETHER_MAX_MS));
    expect(commits).toBe(before);
  });
});

describe('useFirstShownTogether', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with no shape on record, waits while any region loads, and shows all once none does', () => {
    const view = render(<Together loading />);
    expect(view.container.textContent).toBe('waiting');
    view.rerender(<Together loading={false} />);
    expect(view.container.textContent).toBe('shown');
  });

  it('does not wait past TOGETHER_MAX_MS for a region that never comes (a stalled pull)', () => {
    vi.useFakeTimers();
    const view = render(<Together loading />);
    act(() => vi.advanceTimersByTime(TOGETHER_MAX_MS - 1));
    expect(view.container.textContent).toBe('waiting');
    act(() => vi.advanceTimersByTime(1));
    expect(view.container.textContent).toBe('shown');
  });

  it('with every shape on record, waits for none: each region holds its own', () => {
    for (const name of ['test.region', 'test.other']) {
      function Shown() {
        const held = useHeldHeight(name, false);
        return <section data-testid={name} ref={held.ref} />;
      }
      const shown = render(<Shown />);
      act(() => resize(shown.getByTestId(name), 120));
      shown.unmount();
    }
    expect(render(<Together loading />).container.textContent).toBe('shown');
  });

  it('waits while one region of several has no shape on record', () => {
    const shown = render(<Region loading={false} />);
    act(() => resize(shown.getByTestId('region'), 120));
    shown.unmount();
    expect(render(<Together loading />).container.textContent).toBe('waiting');
  });
});

describe('at sign-out', () => {
  it('the shapes go with the person', async () => {
    const view = render(<Region loading={false} />);
    act(() => resize(view.getByTestId('region'), 200));
    expect(localStorage.getItem(HELD_LAYOUT_KEY)).toContain('test.region');
    setAccount(makeAccount());
    await clearLocalSession();
    expect(localStorage.getItem(HELD_LAYOUT_KEY)).toBeNull();
    view.unmount();
    expect(render(<Region loading />).getByTestId('region').style.minHeight).toBe('');
  });
});
