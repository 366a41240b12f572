import { afterEach, describe, expect, it, vi } from 'vitest';
import { startInTurn } from '@/data/replication/in-turn';

/** Items whose first answers the test gives by hand. */
function answers() {
  const started: string[] = [];
  const pending = new Map<string, { resolve(): void; reject(): void }>();
  const start = (item: string) => {
    started.push(item);
    return new Promise<void>((resolve, reject) => pending.set(item, { resolve, reject }));
  };
  return { started, start, answer: (item: string) => pending.get(item)!.resolve(), fail: (item: string) => pending.get(item)!.reject() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('startInTurn', () => {
  it('starts the first few in order, and each later one when an earlier one has its first answer (or failure)', async () => {
    const run = answers();
    const turns = startInTurn(['resident', 'calendar', 'staff', 'tasks', 'journal'], run.start, { atOnce: 2 });
    expect(run.started).toEqual(['resident', 'calendar']);
    run.answer('calendar');
    await vi.waitFor(() => expect(run.started).toEqual(['resident', 'calendar', 'staff']));
    run.fail('resident');
    await vi.waitFor(() => expect(run.started).toEqual(['resident', 'calendar', 'staff', 'tasks']));
    let all = false;
    void turns.allStarted.then(() => (all = true));
    run.answer('staff');
    await vi.waitFor(() => expect(run.started).toHaveLength(5));
    await vi.waitFor(() => expect(all).toBe(true));
  });

  it('gives up a turn that has no answer after turnMs: a stalled request holds the rest back only that long', async () => {
    vi.useFakeTimers();
    const run = answers();
    startInTurn(['a', 'b', 'c'], run.start, { atOnce: 1, turnMs: 1_000 });
    expect(run.started).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(999);
    expect(run.started).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    expect(run.started).toEqual(['a', 'b']);
    run.answer('a'); // late: it frees no second turn
    await vi.advanceTimersByTimeAsync(0);
    expect(run.started).toEqual(['a', 'b']);
  });

  it('a start that throws frees its turn at once', async () => {
    const started: string[] = [];
    startInTurn(['a', 'b'], (item) => {
      started.push(item);
      if (item === 'a') throw new Error('no collection');
      return new Promise(() => undefined);
    }, { atOnce: 1, turnMs: 60_000 });
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));
  });

  it('starts at most perTask in one task, the rest after a yield: seventeen set-ups are no one long task', async () => {
    const run = answers();
    const yields: (() => void)[] = [];
    const yieldToMain = () => new Promise<void>((resolve) => yields.push(resolve));
    const turns = startInTurn(['a', 'b', 'c', 'd', 'e'], run.start, { atOnce: Number.POSITIVE_INFINITY, perTask: 2, yieldToMain });
    let all = false;
    void turns.allStarted.then(() => (all = true));
    expect(run.started).toEqual(['a', 'b']);
    run.answer('a'); // a freed turn starts nothing more in this task: the yield is already due
    await Promise.resolve();
    expect(run.started).toEqual(['a', 'b']);
    expect(yields).toHaveLength(1);
    yields.shift()!();
    await vi.waitFor(() => expect(run.started).toEqual(['a', 'b', 'c', 'd']));
    expect(all).toBe(false);
    yields.shift()!();
    await vi.waitFor(() => expect(run.started).toEqual(['a', 'b', 'c', 'd', 'e']));
    await vi.waitFor(() => expect(all).toBe(true));
  });

  it('cancelled while the rest waits for a later task, starts nothing more', async () => {
    const run = answers();
    const yields: (() => void)[] = [];
    const turns = startInTurn(['a', 'b', 'c'], run.start, {
      atOnce: Number.POSITIVE_INFINITY,
      perTask: 1,
      yieldToMain: () => new Promise<void>((resolve) => yields.push(resolve)),
    });
    turns.cancel();
    await turns.allStarted;
    yields.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.started).toEqual(['a']);
  });

  it('cancelled, starts nothing more and says all started', async () => {
    const run = answers();
    const turns = startInTurn(['a', 'b', 'c'], run.start, { atOnce: 1 });
    turns.cancel();
    await turns.allStarted;
    run.answer('a');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run.started).toEqual(['a']);
  });
});
