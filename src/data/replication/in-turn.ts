import { yieldToMain } from '@/lib/yield-to-main';

/**
 * Starting the pulls in turn (issue 13, initial sync). Seventeen replications asking for their first
 * page at once share one connection budget and one server: on the embedded database a sign-in's
 * calendar page (the largest, and what the dashboard shows first) came back about 400 ms after it
 * was asked for, behind the others' first requests, while the device had nothing to write yet. In
 * turn, the replications the first screen needs (the controller's order) ask first, and a few at a
 * time: each later one starts when an earlier one has its first answer.
 */

/** How many replications wait for their first answer at once. */
export const FIRST_ANSWERS_AT_ONCE = 3;

/** A sign-in's turns (the replica is empty; ../replica/lifecycle.ts). */
export const SIGN_IN_TURNS = { atOnce: FIRST_ANSWERS_AT_ONCE } as const;

/** A turn is given up after this long without an answer (a stalled request holds nothing back for long). */
export const TURN_MS = 1_000;

/**
 * How many replications set up in one task. A warm start starts all seventeen at once; in one task
 * their set-up (checkpoint storage, IndexedDB transactions, subscriptions) was a task of about 19 ms
 * in Lighthouse traces (24-29 ms with V8's profiler on), four times that on its simulated phone,
 * where anything over 50 ms blocks input.
 */
export const STARTS_PER_TASK = 4;

export interface InTurn {
  /** Resolves once every item has been started (or the start was cancelled). */
  readonly allStarted: Promise<void>;
  /** Starts nothing more. */
  cancel(): void;
}

/**
 * Calls `start` for each item in order, at most `atOnce` of them waiting at a time; an item stops
 * waiting when the promise `start` returned settles (its first answer, or its failure) or after
 * `turnMs`, whichever comes first. At most `perTask` start in one task: the rest after a yield.
 */
export function startInTurn<T>(
  items: readonly T[],
  start: (item: T) => Promise<unknown>,
  options: { atOnce?: number; turnMs?: number; perTask?: number; yieldToMain?: () => Promise<void> } = {},
): InTurn {
  const atOnce = Math.max(1, options.atOnce ?? FIRST_ANSWERS_AT_ONCE);
  const turnMs = options.turnMs ?? TURN_MS;
  const perTask = Math.max(1, options.perTask ?? STARTS_PER_TASK);
  const pause = options.yieldToMain ?? yieldToMain;
  const queue = [...items];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let waiting = 0;
  let cancelled = false;
  /** The rest is due in a later task already. */
  let resuming = false;
  let markAllStarted: () => void = () => undefined;
  const allStarted = new Promise<void>((resolve) => {
    markAllStarted = resolve;
  });

  function next(): void {
    if (resuming) return;
    let startedNow = 0;
    while (!cancelled && waiting < atOnce && queue.length > 0) {
      if (startedNow === perTask) {
        resuming = true;
        void pause().then(() => {
          resuming = false;
          next();
        });
        return;
      }
      startedNow += 1;
      const item = queue.shift() as T;
      waiting += 1;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        timers.delete(timer);
        waiting -= 1;
        next();
      };
      const timer = setTimeout(finish, turnMs);
      timers.add(timer);
      let answered: Promise<unknown>;
      try {
        answered = start(item);
      } catch {
        answered = Promise.resolve();
      }
      void answered.then(finish, finish);
    }
    if (cancelled || queue.length === 0) markAllStarted();
  }

  next();
  return {
    allStarted,
    cancel() {
      cancelled = true;
      queue.length = 0;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      markAllStarted();
    },
  };
}
