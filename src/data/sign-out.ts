import { logout } from '@/api/auth/logout';
import { local } from './create-store';
import { forgetHeldLayout } from './held-layout';
import { clearMfaChallenge } from './mfa-challenge';
import { clearSession, getSessionStub } from './session-store';

/** Personal keys of SPEC §9 that go with the person; theme, site and region stay on the device. */
const personalKeys = ['journalIndexVisited', 'voiceIndexVisited', 'voice.categories', 'calendar.eventTypes', 'dashboard.featureFlags'];

/** What a wipe step gets: whose data is going (null when nobody was signed in). */
export interface WipeContext {
  readonly userId: string | null;
  readonly site: string | null;
}

/** One named step of the sign-out wipe (the name shows in the console when it fails). */
export interface WipeStep {
  readonly name: string;
  run(context: WipeContext): Promise<void> | void;
}

/**
 * The sign-out wipe. The composition root (src/app/start-data.ts) installs its one ordered list;
 * before that (or in a test that does not start it) signing out clears only the session and the
 * SPEC §9 keys.
 */
let wipeSteps: readonly WipeStep[] = [];

/** Installs the ordered list of wipe steps; returns the undo (the previous list comes back). */
export function installWipeSteps(steps: readonly WipeStep[]): () => void {
  const previous = wipeSteps;
  wipeSteps = steps;
  return () => {
    if (wipeSteps === steps) wipeSteps = previous;
  };
}

/**
 * Runs every wipe step in order; a failing step does not stop the others. Resolves with the errors
 * of the steps that failed (empty when all went).
 */
export async function wipeLocalData(context: WipeContext): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const step of wipeSteps) {
    try {
      await step.run(context);
    } catch (error) {
      errors.push(error);
      console.error(`A sign-out wipe step failed (${step.name})`, error);
    }
  }
  return errors;
}

/** Tells the server to end the session (POST /auth/logout). Offline, this simply fails. */
export async function endServerSession(): Promise<void> {
  await logout();
}

/**
 * Clears the signed-in state and the person's local data on this device: the session, the SPEC §9
 * keys, then (asynchronously; await the result to know it finished) the installed wipe steps: the
 * encrypted replica, the outbox, caches and the data key.
 */
export function clearLocalSession(): Promise<unknown[]> {
  const stub = getSessionStub();
  const context: WipeContext = { userId: stub?.user_id ?? null, site: stub?.site ?? null };
  clearSession();
  clearMfaChallenge();
  for (const key of personalKeys) local.remove(key);
  forgetHeldLayout(); // the shape of their screens (not in SPEC §9: issue 13's layout memory)
  const wiping = wipeLocalData(context);
  wiping.catch(() => undefined);
  return wiping;
}

/**
 * SPEC §4 logout: calls the logout service, then clears the local data and returns (the caller
 * routes to /). Warning about unsent changes is the caller's job, before calling this.
 */
export async function signOut(): Promise<void> {
  await endServerSession();
  await clearLocalSession();
}
