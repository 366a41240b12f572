import { createStore } from '../create-store';
import type { ReplicaCollectionName } from '../replica/local-writes';

export interface ReplicationStatus {
  /** A pull request is running in this tab. */
  readonly syncing: boolean;
  /** When a pull last caught up with the server (ISO), from this or an earlier start. */
  readonly lastSyncedAt: string | null;
  /** The last failure that is not simply being offline; null after a success. */
  readonly error: string | null;
  /** Collections whose first pull of this start has not finished (nor failed) yet. */
  readonly firstPullPending: ReadonlySet<ReplicaCollectionName>;
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

export const replicationStatus = createStore<ReplicationStatus>({
  syncing: false,
  lastSyncedAt: readLastSynced(),
  error: null,
  firstPullPending: empty,
});

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

export function setFirstPullPending(collection: ReplicaCollectionName, pending: boolean): void {
  const current = replicationStatus.get().firstPullPending;
  if (current.has(collection) === pending) return;
  const next = new Set(current);
  if (pending) next.add(collection);
  else next.delete(collection);
  patchStatus({ firstPullPending: next });
}

export function resetStatus(clearLastSynced = false): void {
  if (clearLastSynced) {
    try {
      globalThis.localStorage?.removeItem(LAST_SYNCED_KEY);
    } catch {
      /* ignore */
    }
  }
  replicationStatus.set({ syncing: false, lastSyncedAt: clearLastSynced ? null : replicationStatus.get().lastSyncedAt, error: null, firstPullPending: empty });
}
