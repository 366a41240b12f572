import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { useLeaveWhenGone } from '@/components/use-leave-when-gone';
import { patchStatus, type PullState } from '@/data/replication/sync-status';
import { waitUntil } from '../support/wait';

function GoneObjective() {
  useLeaveWhenGone(true);
  return <p>Objective not found</p>;
}

function renderFromNotification() {
  render(
    <MemoryRouter initialEntries={['/objectives/42?from=notification']}>
      <Routes>
        <Route path="/objectives/:id" element={<GoneObjective />} />
        <Route path="/dashboard" element={<p>Dashboard</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const tasksPull = (patch: Partial<PullState>): ReadonlyMap<string, PullState> =>
  new Map([['tasks:current', { collection: 'tasks', firstPullPending: false, failed: false, caughtUp: false, ...patch }]]);

afterEach(() => act(() => patchStatus({ syncing: false, firstPullPending: new Set(), pulls: new Map() })));

describe('a screen opened from a notification whose item is not in the replica', () => {
  it('waits for the pulls of this start (not started yet, then the first pull running) before it leaves for the dashboard', async () => {
    renderFromNotification();
    // A warm start: the replica is open, the pulls have not started. The item may be what they bring.
    await act(async () => undefined); // effects have run: a navigation would have happened by now
    expect(screen.getByText('Objective not found')).toBeTruthy();

    act(() => patchStatus({ pulls: tasksPull({ firstPullPending: true }), firstPullPending: new Set(['tasks']) }));
    await act(async () => undefined); // effects have run: a navigation would have happened by now
    expect(screen.getByText('Objective not found')).toBeTruthy();

    act(() => patchStatus({ pulls: tasksPull({ caughtUp: true }), firstPullPending: new Set() }));
    await waitUntil(() => expect(screen.getByText('Dashboard')).toBeTruthy());
  });

  it('leaves at once when the first pulls failed (offline): nothing more is coming', async () => {
    act(() => patchStatus({ pulls: tasksPull({ failed: true }), firstPullPending: new Set() }));
    renderFromNotification();
    await waitUntil(() => expect(screen.getByText('Dashboard')).toBeTruthy());
  });
});
