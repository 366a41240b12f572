/**
 * The journal list's Feeling choices read (and decrypt) every entry: they wait until the first page
 * is on screen and then for the first screen's turn to end (src/data/hooks/use-after-first-screen.ts),
 * reporting "loading" meanwhile so the filter keeps the place it had (issue 13).
 */
import { act, render, screen } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { replicaStore, type OpenReplica } from '@/data/replica/replica-store';
import { FIRST_SCREEN_MS } from '@/data/replication/start-when';
import { resetStatus } from '@/data/replication/sync-status';
import type * as Queries from '@/entries/hooks/journal-entries-query';
import { useJournalReactions } from '@/entries/hooks/use-entries';

const reactions = new Subject<string[]>();
let subscribed = 0;
vi.mock('@/entries/hooks/journal-entries-query', async (importOriginal) => ({
  ...(await importOriginal<typeof Queries>()),
  journalReactions$: () => {
    subscribed += 1;
    return reactions;
  },
}));

function Choices({ enabled }: { enabled: boolean }) {
  const live = useJournalReactions(enabled);
  return <p>{live.loading ? 'loading' : live.data.join(',') || 'none'}</p>;
}

beforeEach(() => {
  vi.useFakeTimers();
  subscribed = 0;
  replicaStore.set({ db: {}, name: 'test', identity: {} } as unknown as OpenReplica);
});
afterEach(() => {
  vi.useRealTimers();
  replicaStore.set(null);
  resetStatus(true);
});

describe('useJournalReactions', () => {
  it('not asked for: reads nothing', () => {
    render(<Choices enabled={false} />);
    act(() => vi.advanceTimersByTime(FIRST_SCREEN_MS * 4));
    expect(subscribed).toBe(0);
    expect(screen.getByText('none')).toBeTruthy();
  });

  it('asked for: "loading" until the first screen has had its turn, then the read, once', () => {
    const view = render(<Choices enabled />);
    expect(screen.getByText('loading')).toBeTruthy();
    act(() => vi.advanceTimersByTime(FIRST_SCREEN_MS - 1));
    expect(subscribed).toBe(0);
    expect(screen.getByText('loading')).toBeTruthy();
    // jsdom has no requestIdleCallback (nor has Safari): the wait alone.
    act(() => vi.advanceTimersByTime(1));
    expect(subscribed).toBe(1);
    act(() => reactions.next(['😢', '😀']));
    expect(screen.getByText('😢,😀')).toBeTruthy();
    view.rerender(<Choices enabled />);
    expect(subscribed).toBe(1);
  });
});
