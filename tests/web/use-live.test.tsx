import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLive } from '@/data/hooks/use-live';
import { resetStatus, updatePull } from '@/data/replication/sync-status';

afterEach(() => {
  resetStatus(true);
});

describe('useLive', () => {
  it('re-renders a screen when its own collection’s first pull changes, not when another replication reports', () => {
    let renders = 0;
    function JournalScreen() {
      renders += 1;
      const live = useLive('journal', null, [] as string[], (list) => list.length === 0);
      return <p>{live.loading ? 'loading' : 'ready'}</p>;
    }
    render(<JournalScreen />);
    const first = renders;

    // 17 replications report at start; each used to re-render every screen reading the replica.
    act(() => {
      updatePull('calendar', 'calendar', { firstPullPending: true });
      updatePull('calendar', 'calendar', { firstPullPending: false, failed: true });
      updatePull('tasks:current', 'tasks', { firstPullPending: true });
    });
    expect(renders).toBe(first);

    act(() => updatePull('journal', 'journal', { firstPullPending: true }));
    expect(renders).toBe(first + 1);
  });
});
