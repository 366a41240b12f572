/**
 * Long loops on the main thread (a read of thousands of records) cut into slices of `ms`, with
 * `yield` between them (the caller's scheduler, e.g. ./yield-to-main.ts). The clock is read every
 * `every` items (a power of two), not every item: reading it costs more than a cheap step.
 */
export interface Slices {
  readonly ms: number;
  readonly yield: () => Promise<void>;
}

export interface SliceClock {
  /** True at item `i` when the slice has run its time (only every `every` items); never without slices. */
  due(i: number): boolean;
  /** Lets other tasks run, then starts the next slice. */
  pause(): Promise<void>;
}

export function sliceClock(slices: Slices | undefined, every: number): SliceClock {
  const mask = every - 1;
  let start = performance.now();
  return {
    due: (i) => slices !== undefined && (i & mask) === mask && performance.now() - start > slices.ms,
    async pause() {
      await slices?.yield();
      start = performance.now();
    },
  };
}
