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

/** Whose data a sign-out now would wipe: the signed-in person (nobody's when no one is signed in). */
export function signedInContext(): WipeContext {
  const stub = getSessionStub();
  return { userId: stub?.user_id ?? null, site: stub?.site ?? null };
}

/**
 * Clears the signed-in state and the person's local data on this device: the session, the SPEC §9
 * keys, then (asynchronously; await the result to know it finished) the installed wipe steps: the
 * encrypted replica, the outbox, caches and the data key.
 */
export function clearLocalSession(context: WipeContext = signedInContext()): Promise<unknown[]> {
  // Noted before anything goes: a page closed, reloaded or sent elsewhere while the wipe runs (the
  // login screen shows at once) finishes it at its next start (finishPendingWipes).
  if (context.userId) notePendingWipe(context);
  clearSession();
  clearMfaChallenge();
  for (const key of personalKeys) local.remove(key);
  forgetHeldLayout(); // the shape of their screens (not in SPEC §9: issue 13's layout memory)
  const wiping = wipeTracked(context);
  wiping.catch(() => undefined);
  return wiping;
}

/** Sign-out wipes begun and not known to have finished (their person and site). */
const PENDING_WIPES_KEY = 'hearth.pendingWipes';
const sameContext = (a: WipeContext, b: WipeContext): boolean => a.userId === b.userId && a.site === b.site;

function pendingWipes(): WipeContext[] {
  const stored = local.read(PENDING_WIPES_KEY);
  if (!Array.isArray(stored)) return [];
  return stored.filter((c): c is WipeContext => typeof c === 'object' && c !== null && typeof (c as WipeContext).userId === 'string');
}

function notePendingWipe(context: WipeContext): void {
  local.write(PENDING_WIPES_KEY, [...pendingWipes().filter((c) => !sameContext(c, context)), context]);
}

function forgetPendingWipe(context: WipeContext): void {
  const left = pendingWipes().filter((c) => !sameContext(c, context));
  if (left.length > 0) local.write(PENDING_WIPES_KEY, left);
  else local.remove(PENDING_WIPES_KEY);
}

/** This page's wipes in progress, by person: a sign-in waits for them (finishPendingWipes). */
const inFlight = new Map<string, Promise<unknown[]>>();
const contextKey = (context: WipeContext): string => JSON.stringify([context.site, context.userId]);

/** Runs the wipe (or joins the one running); once every step succeeded, it is no longer pending. */
function wipeTracked(context: WipeContext): Promise<unknown[]> {
  const key = contextKey(context);
  const running = inFlight.get(key);
  if (running) return running;
  const run = wipeLocalData(context)
    .then((errors) => {
      if (errors.length === 0) forgetPendingWipe(context);
      return errors;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, run);
  return run;
}

/**
 * How long an opening waits for a wipe: a step can hang (another tab keeps the database open, and
 * its deletion is blocked); the wipe stays pending and runs again at the next start.
 */
export const WIPE_WAIT_MS = 10_000;

/**
 * Before a replica opens (and at a start): finishes every sign-out wipe a page began and did not
 * finish (closed, reloaded or sent elsewhere while it ran; or a step that failed), joining those
 * still running in this page. A step that fails again leaves its wipe pending for the next start,
 * except the wipe of the person signing in (`opening`): it runs once more and is then forgotten,
 * so no later start wipes what they write in this new session.
 */
export async function finishPendingWipes(opening: WipeContext | null = null): Promise<void> {
  for (const context of pendingWipes()) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WIPE_WAIT_MS);
    });
    await Promise.race([wipeTracked(context).catch(() => undefined), cap]);
    clearTimeout(timer);
    if (opening && sameContext(context, opening)) forgetPendingWipe(context);
  }
}

/**
 * SPEC §4 logout: calls the logout service, then clears the local data and returns (the caller
 * routes to /). Warning about unsent changes is the caller's job, before calling this. Whose data
 * goes is taken before the server ends the session (`context`, by default the signed-in person
 * now): a request answered 401 meanwhile (a pull, the change stream) clears the signed-in state,
 * and a wipe with nobody's name was not noted as pending, so a page reloaded or closed while it ran
 * left the person's data, drafts they chose to delete included, to their next sign-in.
 */
export async function signOut(context: WipeContext = signedInContext()): Promise<void> {
  await endServerSession();
  await clearLocalSession(context);
}
