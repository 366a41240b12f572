/**
 * A short section run several times and reported by its median run, with every run's value beside
 * it: on this shared 2-core machine one run of a 1.5 s sync moved from 1.3 s to 1.9 s between two
 * bench runs a few minutes apart, while alone it stayed within 1.26-1.43 s (issue 13).
 */
export async function medianRun<T extends object>(runs: number, run: () => Promise<T>, by: (result: T) => number): Promise<T & { allRuns: number[] }> {
  const results: T[] = [];
  for (let i = 0; i < Math.max(1, runs); i++) results.push(await run());
  const sorted = [...results].sort((a, b) => by(a) - by(b));
  return { ...(sorted[Math.floor((sorted.length - 1) / 2)] as T), allRuns: results.map(by) };
}
