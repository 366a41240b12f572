import { describe, expect, it } from 'vitest';
import { tasksAfterFirstPaint, type TraceEvent } from '../../scripts/bench/trace-tasks';

const thread = (pid: number, tid: number, name: string): TraceEvent => ({ ph: 'M', name: 'thread_name', pid, tid, args: { name } });
const task = (pid: number, tid: number, atMs: number, ms: number): TraceEvent => ({ ph: 'X', name: 'RunTask', pid, tid, ts: atMs * 1000, dur: ms * 1000 });

describe('tasksAfterFirstPaint (bench h)', () => {
  it("counts the page's main-thread tasks from its first paint on, as TBT would at 4x", () => {
    const events: TraceEvent[] = [
      thread(1, 1, 'CrRendererMain'),
      thread(1, 2, 'Compositor'),
      thread(9, 1, 'CrRendererMain'), // another page, fewer tasks
      task(1, 1, 10, 40), // before the paint: not counted
      { name: 'firstContentfulPaint', pid: 1, tid: 1, ts: 100_000 },
      task(1, 1, 120, 20), // 80 ms at 4x: 30 over
      task(1, 1, 200, 12), // 48 ms at 4x: not blocking
      task(1, 1, 300, 15), // 60 ms at 4x: 10 over
      task(1, 2, 300, 90), // not the main thread
      task(9, 1, 300, 90),
    ];
    expect(tasksAfterFirstPaint(events)).toEqual({ longestMs: 20, count: 2, over50At4xMs: 40 });
  });

  it('says nothing without a first paint', () => {
    expect(tasksAfterFirstPaint([thread(1, 1, 'CrRendererMain'), task(1, 1, 0, 30)])).toBeNull();
  });
});
