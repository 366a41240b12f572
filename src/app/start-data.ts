/**
 * The composition root of the client data layer: the one place that starts it, called once by
 * src/main.tsx. Importing any module of src/data starts nothing; this wires, in order:
 *
 * 1. the HTTP client's base address follows the region, site and app config, and the app config
 *    is requested (before anything can send);
 * 2. a 401 or 419 anywhere clears the signed-in state (local data is kept: ARCHITECTURE rule 4);
 * 3. the outbox's outcome sink: after a 2xx the entries module (or, for objectives, the
 *    objectives feature; for reward swaps, the rewards feature) settles the delivered document into the server's copy, after a 422 (or any refusal) the document is marked failed (an entry's
 *    edit conflict, 412, also keeps the other device's version), after
 *    deliveries the replica re-syncs their topics (409s are retried by the replayer). This side
 *    (src/app/start-outbox-side.ts, with step 6's outbox) is loaded once someone is signed in, and
 *    always before their replica opens: the login screen's JavaScript stays without it (issue 13);
 * 4. the one ordered list of logout wipe steps (logoutSteps below), and a wipe a page did not finish
 *    (closed while it ran) is finished at the next start, before any replica opens;
 * 5. the replica follows the session: opened at sign-in and at a start with a stored session,
 *    closed at sign-out, its replication stopped on expiry; at such a start the account is also
 *    asked for again once online (the stored copy is only as new as the last sign-in);
 * 6. the service worker (given by main.tsx; production builds only) and the page's side of the outbox (replay on start,
 *    online, visible, a heartbeat, the worker's messages);
 * 7. the browser's install offer is kept for the dashboard (`beforeinstallprompt`), and persistent
 *    storage is asked for once after sign-in (issue 10).
 *
 * It lives in src/app, not src/data, because the sink needs the entries module's and the objectives
 * feature's and the rewards feature's settle code and src/data never imports upward. Tests start it with explicit options, or not at all.
 */
import { sessionExpired } from '@/api/events';
import { startApiBaseSync } from '@/data/api-base-sync';
import { loadAppConfig } from '@/data/app-config-store';
import { startInstallCapture } from '@/data/install';
import { startPersistAfterSignIn } from '@/data/persistent-storage';
import { refreshAccountAtStart } from '@/data/refresh-account';
import { followSession } from '@/data/replica/follow-session';
import type { ReplicaOptions } from '@/data/replica/lifecycle';
import { clearSession, getSessionStub, onSessionChange } from '@/data/session-store';
import { finishPendingWipes, installWipeSteps, type WipeStep } from '@/data/sign-out';
import {
  deletePersonalCachesStep,
  destroyDataKeyStep,
  dropPushSubscriptionStep,
  forgetActiveOwnerStep,
  wipeOutboxStep,
  wipePrefetchStep,
  wipeReplicaStep,
} from '@/data/wipe-steps';

/**
 * SPEC §4 logout, after the session, the two-factor challenge and the SPEC §9 keys are gone
 * (src/data/sign-out.ts, synchronously, so the UI moves at once). The order matters:
 * - the replica first: it is what a person most needs gone, and its removal waits for the close
 *   that signing out already queued;
 * - the push subscription early, so no notification about this person arrives while the rest goes;
 * - the outbox, what the worker pulled ahead on pushes, and the personal caches;
 * - the data key after everything it encrypts: once it is gone, whatever a failed step left
 *   behind is unreadable ciphertext;
 * - the active owner last: the data-key step falls back to it when there was no session stub, and
 *   forgetting it points the outbox at nobody's store.
 */
export function logoutSteps(replica: ReplicaOptions = {}): readonly WipeStep[] {
  return [
    wipeReplicaStep(replica),
    dropPushSubscriptionStep,
    wipeOutboxStep,
    wipePrefetchStep,
    deletePersonalCachesStep,
    destroyDataKeyStep,
    forgetActiveOwnerStep,
  ];
}

export interface StartDataOptions {
  /**
   * How the replica opens and is wiped (tests: fake-indexeddb, a key, no replication).
   * false: it does not follow the session (no IndexedDB here, as in the screen tests).
   */
  readonly replica?: ReplicaOptions | false;
  /** The page's side of the outbox (window and document listeners, a heartbeat). Default true. */
  readonly outbox?: boolean;
  /** The app config request. Default true. */
  readonly shell?: boolean;
  /**
   * Registers the service worker: src/main.tsx passes src/app/shell/service-worker.ts's start,
   * which imports `virtual:pwa-register`, a module only the build has (so tests never import it).
   */
  readonly startServiceWorker?: () => void;
  /** At a start with a stored session, ask the server for the account once online. Default: as `shell`. */
  readonly refreshAccount?: boolean;
  /** Ask for persistent storage once after sign-in. Default true. */
  readonly persistStorage?: boolean;
  /** Tests replace the logout steps to watch their order. */
  readonly wipeSteps?: readonly WipeStep[];
}

let running: (() => void) | null = null;
let outboxWired: Promise<void> = Promise.resolve();

/** Settles once the outbox's side (the sink, the page's replays) is wired for the signed-in person. Tests wait for it. */
export const whenOutboxWired = (): Promise<void> => outboxWired;

/** Starts the data layer; returns the stop (what is open stays open, nothing is wiped). Once per page. */
export function startData(options: StartDataOptions = {}): () => void {
  if (running) return running;
  const replica = options.replica ?? {};
  const stops: (() => void)[] = [];

  stops.push(startApiBaseSync());
  if (options.shell !== false) void loadAppConfig();

  stops.push(sessionExpired.subscribe(() => clearSession()));

  // The outbox's side: loaded and wired once, when someone is signed in (now, or at sign-in).
  let stopped = false;
  let wiring: Promise<void> | null = null;
  const wireOutbox = (): Promise<void> =>
    (wiring ??= outboxWired =
      import('./start-outbox-side').then(
        ({ startOutboxSide }) => {
          if (!stopped) stops.push(startOutboxSide({ outbox: options.outbox !== false }));
        },
        (error: unknown) => {
          wiring = null; // the chunk did not load: the next sign-in or opening tries again
          throw error;
        },
      ));
  stops.push(() => {
    stopped = true;
  });
  stops.push(
    onSessionChange((change) => {
      if (change.type === 'signed-in') void wireOutbox().catch(() => undefined);
    }),
  );
  if (getSessionStub()) void wireOutbox().catch(() => undefined);

  stops.push(installWipeSteps(options.wipeSteps ?? logoutSteps(replica === false ? {} : replica)));

  // A sign-out's wipe that a page did not finish is finished first: now, and before any replica
  // opens (the same person signing in again must not find what they deleted).
  if (replica !== false) {
    void finishPendingWipes();
    const opening = () => {
      const stub = getSessionStub();
      return stub ? { userId: stub.user_id, site: stub.site } : null;
    };
    stops.push(followSession(replica, () => finishPendingWipes(opening()).then(wireOutbox)));
  }
  if (options.refreshAccount ?? options.shell !== false) stops.push(refreshAccountAtStart());

  options.startServiceWorker?.();

  stops.push(startInstallCapture());
  if (options.persistStorage !== false) stops.push(startPersistAfterSignIn());

  const stop = (): void => {
    if (running !== stop) return;
    running = null;
    for (const undo of stops.reverse()) undo();
  };
  running = stop;
  return stop;
}
