/**
 * Seeds of the chaos suites (issue 12), shared by the data layer's (tests/data/chaos.test.ts) and
 * the Playwright slice (e2e/chaos.spec.ts): a fixed default so CI replays the same sequences every
 * run, CHAOS_SEED to replay another, and one seed per sequence derived from it so that any one
 * sequence replays on its own as the first of a run.
 */

/** The default seed: CI replays the same sequences every run. */
export const DEFAULT_SEED = 20_260_612;

export function envInt(name: string): number | null {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The seed of sequence `index`: the base seed itself for the first, so that
 * `CHAOS_SEED=<printed seed>` with one sequence replays any one sequence on its own.
 */
export function sequenceSeed(base: number, index: number): number {
  if (index === 0) return base | 0;
  let h = (base ^ Math.imul(index, 0x9e3779b1)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
