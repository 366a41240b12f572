/**
 * Runs the replica's pull replications in the one tab that replicates.
 *
 * - Leadership: every replication is started with `waitForLeadership: true` (RxDB's leader
 *   election over BroadcastChannel), so with several tabs open only the elected one pulls; the
 *   live triggers below (SSE, `online`, visibility, the periodic pull, the day change, resync
 *   requests) are also set up only once this tab leads. A single-instance database leads at once.
 * - Nothing here is awaited before the UI renders: the screens read the replica immediately.
 * - A failure while offline just retries (RxDB retries on `online` or after `retryTime`); nothing
 *   is ever deleted because of it. A 401/419 stops every replication until the next sign-in.
 */
import { onReachableAgain } from '@/api/reachability';
import { addRxPlugin } from 'rxdb';
import { RxDBLeaderElectionPlugin } from 'rxdb/plugins/leader-election';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import type { Checkpoint, SyncTopic } from '@/contract/sync';
import { openChangeStream } from '@/api/sync/change-stream';
import type { Failure } from '@/api/result';
import type { ReplicaCollectionName } from '../replica/local-writes';
import type { OpenReplica } from '../replica/replica-store';
import {
  calendarReplication,
  documentsReplication,
  emojisReplication,
  eventTypesReplication,
  feedbackReplication,
  formsReplication,
  journalReplication,
  pointsReplication,
  residentReplication,
  rewardHistoryReplication,
  rewardsReplication,
  rotaReplication,
  staffReplication,
  tasksReplication,
  voiceCategoriesReplication,
  voiceReplication,
  type Replicated,
} from './endpoints';
import type { PrefetchLink } from '../prefetch/page-link';
import { PullError, startPull, type PullConfig, type PulledDoc } from './pull';
import { setResyncTarget } from './resync';
import { startInTurn, type InTurn } from './in-turn';
import { afterFirstScreen } from './start-when';
import { followFlags } from './follow-flags';
import { markSynced, patchStatus, updatePull } from './sync-status';
import type { FirstPull, Hold } from './hold';
import { startThreadsAhead, THREADS_AHEAD_PER_KIND, type ThreadsAhead } from './threads-ahead';
import { localDay } from './today';

export const PERIODIC_PULL_MS = 5 * 60_000;
const DAY_CHECK_MS = 60_000;

export interface ReplicationOptions {
  /** Default true. Tests with a single-instance database are leaders anyway. */
  readonly waitForLeadership?: boolean;
  /** Default 5 minutes; 0 turns the periodic pull off. */
  readonly periodicMs?: number;
  /** Milliseconds between retries of a failed request. */
  readonly retryTime?: number;
  /** Today's date, yyyy-MM-dd in the device's zone (tests pin it). */
  readonly today?: () => string;
  /** Page size of every paged pull (default 100; tests use small pages). */
  readonly perPage?: number;
  /** Default true: SSE, `online`, `visibilitychange` and timers. Tests turn them off. */
  readonly liveTriggers?: boolean;
  /** The signed-in person's store of answers the service worker pulled ahead on a push (../prefetch). */
  readonly prefetch?: PrefetchLink;
  /**
   * When the pulls start (`start` is called once; the returned function cancels). Default
   * `afterFirstScreen` (in a page, after the first screen; elsewhere at once); `atOnce` at sign-in.
   */
  readonly startWhen?: (start: () => void) => () => void;
  /**
   * The first requests in turn (./in-turn.ts: how many wait at once, default 3; how long a turn
   * lasts), as after a sign-in, when the replica is empty. Without it every pull asks at once (a
   * warm start's pulls are small catch-ups: asking together is quicker on a slow link).
   */
  readonly inTurn?: { readonly atOnce?: number; readonly turnMs?: number };
  /** How many of the newest threads of each kind are pulled ahead (./threads-ahead.ts; 0: none). */
  readonly threadsAheadPerKind?: number;
}

export interface ReplicationHandle {
  /** Re-pulls the collections of these server topics (all when omitted). */
  reSync(topics?: readonly SyncTopic[]): void;
  /** Resolves once every running replication has finished its first pull. */
  awaitInitial(): Promise<void>;
  /** Resolves when no replication has work left (tests). */
  awaitInSync(): Promise<void>;
  /** The running replications by key (resident, staff, rota, calendar, event_types, feedback, tasks:current...). */
  states(): ReadonlyMap<string, RxReplicationState<PulledDoc, Checkpoint>>;
  /**
   * Runs an extra replication (a comment thread) while someone holds it; the returned function
   * releases it, and the last release cancels it. Runs in every tab that asks (not only the
   * leader): a thread is small and the screen showing it needs it now. A `background` hold (a
   * thread pulled ahead) does not mark the collection's first pull pending: no screen waits for it.
   */
  acquire(replicated: Replicated, options?: { readonly background?: boolean }): Hold;
  /** Cancels everything; the replica and its checkpoints stay. */
  stop(): Promise<void>;
  readonly stopped: boolean;
}

type State = RxReplicationState<PulledDoc, Checkpoint>;

export function startReplication(open: OpenReplica, options: ReplicationOptions = {}): ReplicationHandle {
  const { db, identity } = open;
  const today = options.today ?? (() => localDay());
  /** `firstPending`: its first pull has neither finished nor failed yet. */
  const running = new Map<string, { replicated: Replicated; state: State; subs: { unsubscribe(): void }[]; recordNext: () => void; firstPending: boolean }>();
  const cleanups: (() => void)[] = [];
  const active = new Map<string, boolean>();
  let stopped = false;
  let rotaDay = today();
  /** The newest threads, pulled ahead by the tab that pulls (./threads-ahead.ts). */
  let threadsAhead: ThreadsAhead | null = null;
  /** Each replication's first answer (success or failure), which gives the next one its turn (./in-turn.ts). */
  const firstAnswers = new Map<string, () => void>();
  const answered = (key: string) => {
    firstAnswers.get(key)?.();
    firstAnswers.delete(key);
  };

  const refreshSyncing = () => patchStatus({ syncing: [...active.values()].some(Boolean) });

  /** Those waiting for a held replication's first pull (`Hold.firstPull`), by key. */
  const firstPullWaiters = new Map<string, Set<(outcome: FirstPull) => void>>();
  const settleFirstPull = (key: string, outcome: FirstPull) => {
    const waiters = firstPullWaiters.get(key);
    firstPullWaiters.delete(key);
    waiters?.forEach((settle) => settle(outcome));
  };
  function firstPullOf(key: string): Promise<FirstPull> {
    const entry = running.get(key);
    if (!entry) return Promise.resolve({ ok: false, status: 0 });
    return new Promise((resolve) => {
      const waiters = firstPullWaiters.get(key) ?? new Set();
      firstPullWaiters.set(key, waiters);
      waiters.add(resolve);
      const settle = (outcome: FirstPull) => {
        waiters.delete(resolve);
        resolve(outcome);
      };
      entry.state.awaitInitialReplication().then(
        () => settle({ ok: true }),
        () => settle({ ok: false, status: 0 }),
      );
    });
  }

  /** What a replication's requests report: the shared status, and this replication's own state. */
  const eventsFor = (replicated: Replicated) => ({
    onFailure(failure: Failure, config: PullConfig) {
      answered(replicated.key);
      const entry = running.get(replicated.key);
      if (entry) entry.firstPending = false;
      settleFirstPull(replicated.key, { ok: false, status: failure.status });
      if (failure.status === 401 || failure.status === 419) {
        patchStatus({ error: 'Session expired' });
        void handle.stop();
        return;
      }
      updatePull(replicated.key, config.collection, { firstPullPending: false, failed: true });
      // Offline (status 0) is not an error to show: the offline banner says it.
      if (failure.status !== 0) patchStatus({ error: failure.message || `Sync failed (${failure.status})` });
    },
    onSuccess(config: PullConfig, caughtUp: boolean) {
      answered(replicated.key);
      updatePull(replicated.key, config.collection, caughtUp ? { failed: false, caughtUp: true } : { failed: false });
      if (caughtUp) markSynced(new Date().toISOString());
    },
  });

  /** `showPending`: the collection's first pull counts as pending until this one's has ended. */
  function run(replicated: Replicated, leaderOnly = true, showPending = true): void {
    if (stopped || running.has(replicated.key)) return;
    const collection = db.collections[replicated.config.collection as ReplicaCollectionName];
    const config =
      options.perPage && replicated.config.kind === 'pages' ? { ...replicated.config, perPage: options.perPage } : replicated.config;
    // Pulling ahead (../prefetch): kept answers are offered before each request; the next request is
    // recorded once the replication is idle again (what it pulled is written by then).
    const link = options.prefetch;
    let nextUrl: string | null = null;
    const recordNext = () => {
      if (!link || !nextUrl) return;
      void link.record({ identifier: replicated.config.identifier, topics: replicated.topics, screen: replicated.screen ?? null, url: nextUrl });
      nextUrl = null;
    };
    const state = startPull(collection as never, config, eventsFor(replicated), {
      waitForLeadership: leaderOnly && (options.waitForLeadership ?? true),
      retryTime: options.retryTime,
      prefetch: link
        ? {
            take: (url) => link.take(replicated.config.identifier, url),
            next: (url) => {
              nextUrl = url;
            },
          }
        : undefined,
    });
    const subs = [
      state.active$.subscribe((isActive) => {
        const was = active.get(replicated.key) ?? false;
        active.set(replicated.key, isActive);
        refreshSyncing();
        if (was && !isActive) recordNext();
        // Idle again: what it pulled is written; let it tidy what depends on it.
        if (was && !isActive && replicated.afterPull && !stopped) void replicated.afterPull(open).catch(() => undefined);
      }),
      state.error$.subscribe((error) => {
        const cause = (error as { parameters?: { errors?: { name?: string }[] } }).parameters?.errors?.[0];
        if (!cause || cause.name !== PullError.name) patchStatus({ error: error.message });
      }),
    ];
    const { collection: name } = replicated.config;
    if (showPending) updatePull(replicated.key, name, { firstPullPending: true });
    const firstDone = () => {
      const entry = running.get(replicated.key);
      if (entry?.state !== state) return;
      entry.firstPending = false;
      updatePull(replicated.key, name, { firstPullPending: false });
    };
    void state.awaitInitialReplication().then(firstDone, firstDone);
    running.set(replicated.key, { replicated, state, subs, recordNext, firstPending: true });
  }

  /** `run`, resolving at the replication's first answer (at once when it does not start). */
  function runInTurn(replicated: Replicated): Promise<void> {
    if (stopped || running.has(replicated.key)) return Promise.resolve();
    const first = new Promise<void>((resolve) => firstAnswers.set(replicated.key, resolve));
    run(replicated);
    return first;
  }

  async function cancel(key: string): Promise<void> {
    answered(key);
    settleFirstPull(key, { ok: false, status: 0 });
    const entry = running.get(key);
    if (!entry) return;
    running.delete(key);
    active.delete(key);
    entry.subs.forEach((s) => s.unsubscribe());
    updatePull(key, entry.replicated.config.collection, null);
    // Best effort: let a page that is being written store its checkpoint (else it is fetched again).
    const internal = entry.state.internalReplicationState;
    if (internal) {
      const settled = internal.streamQueue.down.then(() => internal.checkpointQueue);
      await Promise.race([settled.catch(() => undefined), new Promise((r) => setTimeout(r, 500))]);
    }
    entry.recordNext();
    await entry.state.cancel();
    refreshSyncing();
  }

  let rotaHome = identity.homeId ?? identity.homeIds[0] ?? null;

  /**
   * A young person's roster follows their record's home: staff can move them to another home while
   * the app is open, and the old home's roster then answers 404 (its shifts come back as tombstones
   * with the new home's). The identity names the home the replica opened with.
   */
  function followHome(): () => void {
    if (!identity.residentId) return () => undefined;
    const subscription = db.resident.findOne(identity.residentId).$.subscribe((doc) => {
      const home = (doc?.toJSON() as { home_id?: string | null } | undefined)?.home_id;
      if (!home || home === rotaHome || stopped) return;
      rotaHome = home;
      void cancel('rota').then(() => {
        if (!stopped && rotaHome === home) run(rotaReplication(home, rotaDay));
      });
    });
    return () => subscription.unsubscribe();
  }

  /** Every replication this person has (the comment threads come and go with their screens). */
  function planned(): Replicated[] {
    const all: Replicated[] = [];
    if (identity.residentId) {
      all.push(residentReplication(identity.residentId), calendarReplication(identity.residentId));
      if (identity.homeIds.length > 0) all.push(staffReplication(identity.residentId));
      all.push(
        tasksReplication(identity.residentId, 'current'),
        tasksReplication(identity.residentId, 'completed'),
        pointsReplication(identity.residentId),
        rewardsReplication(identity.residentId),
        rewardHistoryReplication(identity.residentId),
      );
    }
    if (rotaHome) all.push(rotaReplication(rotaHome, rotaDay));
    all.push(eventTypesReplication(), feedbackReplication(), journalReplication(), voiceReplication(), voiceCategoriesReplication(), emojisReplication(), formsReplication());
    if (identity.residentId) all.push(documentsReplication());
    return all;
  }

  const holders = new Map<string, number>();
  function acquire(replicated: Replicated, options: { readonly background?: boolean } = {}): Hold {
    const { key } = replicated;
    const foreground = !options.background;
    holders.set(key, (holders.get(key) ?? 0) + 1);
    const already = running.get(key);
    run(replicated, false, foreground);
    // A screen that opens a thread being pulled in the background waits for it as for its own.
    if (foreground && already?.firstPending) updatePull(key, replicated.config.collection, { firstPullPending: true });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (holders.get(key) ?? 1) - 1;
      if (left > 0) {
        holders.set(key, left);
        return;
      }
      holders.delete(key);
      void cancel(key);
    };
    return Object.assign(release, { firstPull: firstPullOf(key) });
  }

  /** A new day: today's roster is another replication; yesterday's shifts leave the replica. */
  async function checkDay(): Promise<void> {
    const day = today();
    if (day === rotaDay || stopped) return;
    rotaDay = day;
    await cancel('rota');
    await db.rota
      .find({ selector: { shift_date: { $lt: day } } })
      .remove()
      .catch(() => undefined);
    if (rotaHome) run(rotaReplication(rotaHome, day));
  }

  function reSync(topics?: readonly SyncTopic[]): void {
    if (stopped) return;
    void checkDay();
    threadsAhead?.nudge();
    for (const { replicated, state } of running.values()) {
      if (!topics || replicated.topics.some((t) => topics.includes(t))) state.reSync();
    }
  }

  function leaderDuties(): void {
    if (stopped) return;
    cleanups.push(setResyncTarget(reSync), followHome());
    const perKind = options.threadsAheadPerKind ?? THREADS_AHEAD_PER_KIND;
    if (perKind > 0) {
      const ahead = startThreadsAhead({ db, acquire, afterFirstPulls: awaitInitial, perKind });
      threadsAhead = ahead;
      cleanups.push(() => {
        ahead.stop();
        threadsAhead = null;
      });
    }
    if (options.liveTriggers === false) return;
    cleanups.push(openChangeStream({ onChange: (topics) => reSync(topics), onOpen: () => reSync() }));
    if (typeof window !== 'undefined') {
      const onOnline = () => reSync();
      window.addEventListener('online', onOnline);
      cleanups.push(() => window.removeEventListener('online', onOnline));
      // A Wi-Fi that reached nothing reaches the server again: no `online` event says so.
      cleanups.push(onReachableAgain(onOnline));
    }
    if (typeof document !== 'undefined') {
      const onVisible = () => {
        if (document.visibilityState !== 'visible') return;
        // Back in view: the worker may have pulled ahead for a push while this tab was hidden.
        options.prefetch?.refresh();
        reSync();
      };
      document.addEventListener('visibilitychange', onVisible);
      cleanups.push(() => document.removeEventListener('visibilitychange', onVisible));
    }
    const periodic = options.periodicMs ?? PERIODIC_PULL_MS;
    if (periodic > 0) {
      const timer = setInterval(() => reSync(), periodic);
      cleanups.push(() => clearInterval(timer));
    }
    const dayTimer = setInterval(() => void checkDay(), DAY_CHECK_MS);
    cleanups.push(() => clearInterval(dayTimer));
  }

  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  // Pending from now, not from when the pulls start: an empty replica shows "loading", never "nothing yet".
  const replications = planned();
  for (const replicated of replications) updatePull(replicated.key, replicated.config.collection, { firstPullPending: true });
  // The tabs elect their leader meanwhile (it takes a second or two), so the pulls can go when their turn comes.
  let leadership: Promise<unknown> | null = null;
  if (db.multiInstance && (options.waitForLeadership ?? true)) {
    addRxPlugin(RxDBLeaderElectionPlugin);
    leadership = db.waitForLeadership();
  }
  let turns: InTurn | null = null;
  function begin(): void {
    if (stopped) return markStarted();
    options.prefetch?.refresh();
    cleanups.push(followFlags(open)); // every tab, before the pulls: ./follow-flags.ts
    // In turn (./in-turn.ts) once this tab leads: before, every first request waits for leadership anyway.
    const inTurn = () => startInTurn(replications, runInTurn, options.inTurn ?? { atOnce: Number.POSITIVE_INFINITY });
    if (leadership) {
      let stopWaiting: () => void = () => undefined;
      const waitingStopped = new Promise<void>((resolve) => {
        stopWaiting = resolve;
      });
      const led = leadership.then(
        () => {
          if (stopped) return;
          turns = inTurn();
          return turns.allStarted;
        },
        () => undefined,
      );
      turns = { allStarted: Promise.race([waitingStopped, led]), cancel: stopWaiting };
      void leadership.then(leaderDuties, () => undefined);
    } else {
      turns = inTurn();
      leaderDuties();
    }
    markStarted();
  }
  // A function (hoisted): a start at once reaches leaderDuties, which hands it on, before `handle` exists.
  async function awaitInitial(): Promise<void> {
    await started;
    await turns?.allStarted;
    await Promise.all([...running.values()].map((entry) => entry.state.awaitInitialReplication()));
  }
  const cancelStart = (options.startWhen ?? afterFirstScreen)(begin);

  const handle: ReplicationHandle = {
    reSync,
    acquire,
    get stopped() {
      return stopped;
    },
    states: () => new Map([...running].map(([key, entry]) => [key, entry.state])),
    awaitInitial,
    async awaitInSync() {
      await started;
      await turns?.allStarted;
      await Promise.all([...running.values()].map((entry) => entry.state.awaitInSync()));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      cancelStart();
      turns?.cancel();
      markStarted();
      cleanups.splice(0).forEach((fn) => fn());
      await Promise.all([...running.keys()].map((key) => cancel(key)));
      patchStatus({ syncing: false, firstPullPending: new Set(), pulls: new Map() });
    },
  };
  return handle;
}
