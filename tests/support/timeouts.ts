/**
 * The one wait budget for unit tests (no imports: vitest.config.ts reads it too). Two shared cores run a
 * database, a browser and several agents: a wait that polls for a state may take long under load, and
 * giving up early is a flake, not a finding. TEST_TIMEOUT_MS leaves room for several full waits per test.
 */
export const WAIT_MS = 15_000;
export const TEST_TIMEOUT_MS = 60_000;
export const HOOK_TIMEOUT_MS = 90_000;
