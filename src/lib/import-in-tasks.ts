import { yieldToMain } from './yield-to-main';

/** Loads one module (a dynamic `import()`); what it resolves to is not used. */
export type ModuleStep = () => Promise<unknown>;

/**
 * Evaluates a graph of modules a few at a time: each step's `import()` evaluates that module and
 * whatever it imports that has not run yet, then the browser gets a turn before the next step.
 * A graph imported in one `import()` runs in one task; for the contract's zod schemas that task was
 * 55-110 ms on a 4x slower phone (issue 13: no long task at start). List the modules leaves first,
 * so each step adds only its own module; the last `import()` of the caller finds them all loaded.
 * A step that fails rejects, as the caller's own import would have.
 */
export async function importInTasks(steps: readonly ModuleStep[], pause: () => Promise<void> = yieldToMain): Promise<void> {
  for (const step of steps) {
    await step();
    await pause();
  }
}
