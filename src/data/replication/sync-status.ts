import { createStore } from '../create-store';
import type { ReplicaCollectionName } from '../replica/local-writes';

/** One running replication (by its key: `journal`, `tasks:current`...) in this start. */
export interface PullState {
  readonly collection: ReplicaCollectionName;
  /** Its first pull of this start has not finished (nor failed) yet. */
  readonly firstPullPending: boolean;
  /** Its last request failed (offline too) and none has succeeded since. */
  readonly failed: boolean;
  /** It has caught up with the server at least once in this start. */
  readonly caughtUp: boolean;
}

export interface ReplicationStatus {
  /** A pull request is running in this tab. */
  readonly syncing: boolean;
  /** When a pull last caught up with the server (ISO), from this or an earlier start. */
  readonly lastSyncedAt: string | null;
  /** The last failure that is not simply being offline; null after a success. */
  readonly error: string | null;
  /** Collections whose first pull of this start has not finished (nor failed) yet (any of their replications). */
  readonly firstPullPending: ReadonlySet<ReplicaCollectionName>;
  /**
   * A replication is about to start (or restart) for the open replica and has not yet said which
   * collections it pulls: until it has, every collection counts as pending (`isFirstPullPending`),
   * so a screen shows "loading", never "nothing yet", in the moment between the two.
   */
  readonly starting: boolean;
  /** Each running replication by key. */
  readonly pulls: ReadonlyMap<string, PullState>;
}

const LAST_SYNCED_KEY = 'hearth.lastSyncedAt';

function readLastSynced(): string | null {
  try {
    return globalThis.localStorage?.getItem(LAST_SYNCED_KEY) ?? null;
  } catch {
    return null;
  }
}

const empty: ReadonlySet<ReplicaCollectionName> = new Set();
const noPulls: ReadonlyMap<string, PullState> = new Map();

export const replicationStatus = createStore<ReplicationStatus>({
  syncing: false,
  lastSyncedAt: readLastSynced(),
  error: null,
  firstPullPending: empty,
  starting: false,
  pulls: noPulls,
});

/** Whether `collection`'s first pull of this start is still to come or running. */
export function isFirstPullPending(status: ReplicationStatus, collection: ReplicaCollectionName): boolean {
  return status.starting || status.firstPullPending.has(collection);
}

export function patchStatus(patch: Partial<ReplicationStatus>): void {
  replicationStatus.set((previous) => {
    const next = { ...previous, ...patch };
    const same = (Object.keys(patch) as (keyof ReplicationStatus)[]).every((k) => Object.is(previous[k], next[k]));
    return same ? previous : next;
  });
}

export function markSynced(at: string): void {
  patchStatus({ lastSyncedAt: at, error: null });
  try {
    globalThis.localStorage?.setItem(LAST_SYNCED_KEY, at);
  } catch {
    /* not critical */
  }
}

/**
 * Records what a replication went through (`patch`), or forgets it (null, when it is cancelled).
 * A collection's first pull is pending while any of its replications' is.
 */
export function updatePull(key: string, collection: ReplicaCollectionName, patch: Partial<Omit<PullState, 'collection'>> | null): void {
  const previous = replicationStatus.get();
  const before = previous.pulls.get(key);
  const pulls = new Map(previous.pulls);
  if (patch === null) {
    if (!before) return;
    pulls.delete(key);
  } else {
    const next: PullState = { collection, firstPullPending: false, failed: false, caughtUp: false, ...before, ...patch };
    if (before && before.firstPullPending === next.firstPullPending && before.failed === next.failed && before.caughtUp === next.caughtUp) return;
    pulls.set(key, next);
  }
  const pending = new Set([...pulls.values()].filter((p) => p.firstPullPending).map((p) => p.collection));
  const same = pending.size === previous.firstPullPending.size && [...pending].every((c) => previous.firstPullPending.has(c));
  patchStatus({ pulls, ...(same ? {} : { firstPullPending: pending }) });
}

export function resetStatus(clearLastSynced = false): void {
  if (clearLastSynced) {
    try {
      globalThis.localStorage?.removeItem(LAST_SYNCED_KEY);
    } catch {
      /* ignore */
    }
  }
  replicationStatus.set({
    syncing: false,
    lastSyncedAt: clearLastSynced ? null : replicationStatus.get().lastSyncedAt,
    error: null,
    firstPullPending: empty,
    starting: false,
    pulls: noPulls,
  });
}
