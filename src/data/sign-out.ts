import { logout } from '@/api/auth/logout';
import { local } from './create-store';
import { clearMfaChallenge } from './mfa-challenge';
import { clearSession, getSessionStub } from './session-store';

/** Personal keys of SPEC §9 that go with the person; theme, site and region stay on the device. */
const personalKeys = ['journalIndexVisited', 'voiceIndexVisited', 'voice.categories', 'calendar.eventTypes', 'dashboard.featureFlags'];

/** What a wipe step gets: whose data is going (null when nobody was signed in). */
export interface WipeContext {
  readonly userId: string | null;
  readonly site: string | null;
}
export type WipeStep = (context: WipeContext) => Promise<void> | void;

/**
 * The sign-out wipe, step by step. The replica's removal is built in; the outbox wipe and the push
 * unsubscription register theirs here (`registerWipeStep`). Steps run in order; a failing step
 * does not stop the others.
 */
const wipeSteps: WipeStep[] = [
  async ({ userId, site }) => {
    if (typeof indexedDB === 'undefined') return; // no replica can exist here
    // Loaded on demand: RxDB stays out of the entry chunk.
    const { replicaNameFor, wipeReplica } = await import('./replica/lifecycle');
    await wipeReplica(userId ? await replicaNameFor(site, userId) : undefined);
  },
];

/** Adds a step to the sign-out wipe; returns the undo. */
export function registerWipeStep(step: WipeStep): () => void {
  wipeSteps.push(step);
  return () => {
    const index = wipeSteps.indexOf(step);
    if (index >= 0) wipeSteps.splice(index, 1);
  };
}

/** Runs every wipe step; resolves with the errors of the steps that failed (empty when all went). */
export async function wipeLocalData(context: WipeContext): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const step of [...wipeSteps]) {
    try {
      await step(context);
    } catch (error) {
      errors.push(error);
      console.error('A sign-out wipe step failed', error);
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
 * keys, then (asynchronously; await the result to know it finished) the encrypted replica and
 * whatever else registered a wipe step.
 */
export function clearLocalSession(): Promise<unknown[]> {
  const stub = getSessionStub();
  const context: WipeContext = { userId: stub?.user_id ?? null, site: stub?.site ?? null };
  clearSession();
  clearMfaChallenge();
  for (const key of personalKeys) local.remove(key);
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
