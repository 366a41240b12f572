/**
 * SPEC §2/§9's loading bar: shown only when requests last longer than the throttle, gone when they
 * end; and the requests of a signed-in start never make it an urgent update (issue 13: a store read
 * with useSyncExternalStore re-rendered synchronously at every request, interrupting the screens).
 */
import { act, render } from '@testing-library/react';
import { Profiler } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getInFlightCount, trackRequest } from '@/api/events';
import { LoadingBar } from '@/app/shell/loading-bar';
import { rules } from '@/contract/rules';

let renders = 0;
function renderBar() {
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <Profiler id="bar" onRender={() => void renders++}>
          <LoadingBar />
        </Profiler>
      ),
    },
  ]);
  const view = render(<RouterProvider router={router} />);
  return () => view.container.querySelector('.loading-bar')?.getAttribute('data-visible');
}

beforeEach(() => {
  renders = 0;
  vi.useFakeTimers();
});
afterEach(() => {
  while (getInFlightCount() > 0) trackRequest(-1);
  vi.useRealTimers();
});

describe('LoadingBar', () => {
  it('shows only for requests longer than the throttle and hides when they end', async () => {
    const visible = renderBar();
    await act(async () => trackRequest(1));
    await act(async () => vi.advanceTimersByTime(rules.loadingBarThrottleMs - 20));
    expect(visible()).toBe('false');
    await act(async () => trackRequest(-1));
    await act(async () => vi.advanceTimersByTime(rules.loadingBarThrottleMs * 2));
    expect(visible()).toBe('false');

    await act(async () => trackRequest(1));
    await act(async () => vi.advanceTimersByTime(rules.loadingBarThrottleMs + 20));
    expect(visible()).toBe('true');
    await act(async () => trackRequest(-1));
    expect(visible()).toBe('false');
  });

  it('renders nothing when requests start and end while others are in flight', async () => {
    renderBar();
    await act(async () => trackRequest(1));
    const before = renders;
    await act(async () => {
      trackRequest(1);
      trackRequest(1);
      trackRequest(-1);
    });
    expect(renders).toBe(before);
  });

  it('follows requests in a transition, not in the microtask an urgent update renders in', async () => {
    renderBar();
    await act(async () => vi.advanceTimersByTime(10));
    const before = renders;
    trackRequest(1);
    // An urgent (sync-lane) update renders in a microtask; a transition waits for the scheduler's task.
    await Promise.resolve();
    await Promise.resolve();
    expect(renders).toBe(before);
    await act(async () => vi.advanceTimersByTime(10));
    expect(renders).toBeGreaterThan(before);
  });
});
