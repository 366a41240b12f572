/**
 * The page's main-thread tasks from the first contentful paint on, read from a Lighthouse run's
 * trace: observed times, not simulated ones. Lighthouse's TBT multiplies each task of the trace by
 * its 4x CPU slowdown inside a simulated load, and moved by more than a change did between runs
 * minutes apart (docs/decisions.md, "Page speed (issue 13)"); these say what the change did to the
 * tasks themselves. `over50At4xMs` is what those tasks add at 4x over 50 ms each, TBT's sum.
 */
export interface TraceEvent {
  readonly name?: string;
  readonly ph?: string;
  readonly pid?: number;
  readonly tid?: number;
  readonly ts?: number;
  readonly dur?: number;
  readonly args?: { readonly name?: string };
}

export interface TasksAfterPaint {
  longestMs: number;
  /** Tasks longer than 50 ms at 4x (12.5 ms observed). */
  count: number;
  over50At4xMs: number;
}

const SLOWDOWN = 4;
const BLOCKING_MS = 50;

export function tasksAfterFirstPaint(events: readonly TraceEvent[]): TasksAfterPaint | null {
  const renderers = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || event.name !== 'RunTask' || !renderers.has(thread)) continue;
    const list = tasks.get(thread);
    if (list) list.push(event);
    else tasks.set(thread, [event]);
  }
  // The page's main thread is the renderer that ran the most tasks (others are extensions' or blank pages').
  const [thread, mainTasks] = [...tasks.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  if (!thread || !mainTasks) return null;
  const pid = Number(thread.split(':')[0]);
  const paints = events.filter((e) => e.name === 'firstContentfulPaint' && e.pid === pid && typeof e.ts === 'number').map((e) => e.ts as number);
  if (paints.length === 0) return null;
  const from = Math.max(...paints);
  const after = mainTasks.filter((t) => (t.ts ?? 0) >= from).map((t) => (t.dur ?? 0) / 1000);
  const blocking = after.map((ms) => ms * SLOWDOWN - BLOCKING_MS).filter((excess) => excess > 0);
  return {
    longestMs: Math.round(Math.max(0, ...after) * 10) / 10,
    count: blocking.length,
    over50At4xMs: Math.round(blocking.reduce((sum, excess) => sum + excess, 0)),
  };
}
