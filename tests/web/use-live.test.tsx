import { act, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { useLive, useReplica } from '@/data/hooks/use-live';
import { replicaStore, type OpenReplica } from '@/data/replica/replica-store';
import { patchStatus, resetStatus, updatePull } from '@/data/replication/sync-status';

afterEach(() => {
  replicaStore.set(null);
  resetStatus(true);
});

/** A replica whose one query is driven by the test (useLive reads nothing else of it). */
function openReplica(): Subject<string[]> {
  const rows = new Subject<string[]>();
  replicaStore.set({ db: {}, name: 'test', identity: {} } as unknown as OpenReplica);
  return rows;
}

/** A screen of the journal; `onCommit` hears each text it puts on screen. */
function screenReading(rows: Subject<string[]>, onRender: () => void, onCommit: (text: string) => void = () => undefined) {
  const factory = () => rows;
  return function JournalScreen() {
    onRender();
    const live = useLive('journal', factory, [] as string[], (list) => list.length === 0);
    const text = live.loading ? 'loading' : live.data.length === 0 ? 'nothing yet' : live.data.join(',');
    useLayoutEffect(() => {
      onCommit(text);
    }, [text]);
    return <p>{text}</p>;
  };
}

describe('useReplica', () => {
  const replica = (name: string) => ({ db: {}, name, identity: {} }) as unknown as OpenReplica;
  function Probe() {
    const open = useReplica();
    return <p>{open ? `open ${open.name}` : 'closed'}</p>;
  }

  it('shows the replica that opens, and never one closed before its opening was shown', () => {
    render(<Probe />);
    expect(screen.getByText('closed')).toBeTruthy();
    act(() => replicaStore.set(replica('a')));
    expect(screen.getByText('open a')).toBeTruthy();
    act(() => replicaStore.set(null));
    expect(screen.getByText('closed')).toBeTruthy();
    // The opening waits in a transition; the close that follows it in the same turn wins.
    act(() => {
      replicaStore.set(replica('b'));
      replicaStore.set(null);
    });
    expect(screen.getByText('closed')).toBeTruthy();
    act(() => {
      replicaStore.set(replica('c'));
      replicaStore.set(null);
      replicaStore.set(replica('d'));
    });
    expect(screen.getByText('open d')).toBeTruthy();
  });

  it('starts with the replica already open', () => {
    replicaStore.set(replica('e'));
    render(<Probe />);
    expect(screen.getByText('open e')).toBeTruthy();
  });
});

describe('useLive', () => {
  it('re-renders a screen when its own collection’s first pull changes, not when another replication reports', () => {
    const rows = openReplica();
    let renders = 0;
    const JournalScreen = screenReading(rows, () => (renders += 1));
    act(() => updatePull('journal', 'journal', { firstPullPending: true }));
    render(<JournalScreen />);
    act(() => rows.next([]));
    expect(screen.getByText('loading')).toBeTruthy();
    const first = renders;

    // 17 replications report at start; each used to re-render every screen reading the replica.
    act(() => {
      updatePull('calendar', 'calendar', { firstPullPending: true });
      updatePull('calendar', 'calendar', { firstPullPending: false, failed: true });
      updatePull('tasks:current', 'tasks', { firstPullPending: true });
    });
    expect(renders).toBe(first);

    act(() => updatePull('journal', 'journal', { firstPullPending: false }));
    expect(renders).toBe(first + 1);
    expect(screen.getByText('nothing yet')).toBeTruthy();
  });

  it('never shows "nothing yet" between the first pull ending and the rows it wrote arriving', () => {
    const rows = openReplica();
    const seen: string[] = [];
    const JournalScreen = screenReading(rows, () => undefined, (text) => seen.push(text));
    act(() => updatePull('journal', 'journal', { firstPullPending: true }));
    render(<JournalScreen />);
    act(() => rows.next([]));

    // The pull's rows are emitted, then the pull reports it is done, before React has rendered
    // the rows (their update is a transition; the flag used to be an urgent one that overtook it).
    act(() => {
      rows.next(['first entry']);
      updatePull('journal', 'journal', { firstPullPending: false });
    });

    expect(seen).toEqual(['loading', 'first entry']);
  });

  it('keeps what it showed when the same database comes back under a newer identity; another database starts over', () => {
    const rows = openReplica();
    const seen: string[] = [];
    const JournalScreen = screenReading(rows, () => undefined, (text) => seen.push(text));
    render(<JournalScreen />);
    act(() => rows.next(['first entry']));
    const open = replicaStore.get()!;

    // The account the server sends back at a start, with the homes changed: no "Loading…" between.
    act(() => replicaStore.set({ ...open, identity: { homes: ['another'] } } as unknown as OpenReplica));
    expect(screen.getByText('first entry')).toBeTruthy();
    act(() => rows.next(['first entry', 'second']));
    expect(seen).toEqual(['loading', 'first entry', 'first entry,second']);

    // Another database (another person's replica) never shows the rows read from the first.
    act(() => replicaStore.set({ ...open, db: {} } as unknown as OpenReplica));
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it('says "loading" for an empty collection while a replication is starting, before it has named its pulls', () => {
    const rows = openReplica();
    const JournalScreen = screenReading(rows, () => undefined);
    act(() => patchStatus({ starting: true }));
    render(<JournalScreen />);
    act(() => rows.next([]));
    expect(screen.getByText('loading')).toBeTruthy();

    // It has started and pulls nothing into this collection: empty is the answer now.
    act(() => patchStatus({ starting: false }));
    expect(screen.getByText('nothing yet')).toBeTruthy();
  });
});
