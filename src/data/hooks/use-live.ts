import { startTransition, useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { useInTransition } from '../create-store';
import type { ReplicaCollectionName } from '../replica/local-writes';
import { replicaStore, type OpenReplica } from '../replica/replica-store';
import { isFirstPullPending, replicationStatus } from '../replication/sync-status';

/** What every data hook returns. */
export interface Live<T> {
  data: T;
  /** The replica is not open yet, or its first pull is still running and it has nothing to show. */
  loading: boolean;
}

const isClosed = (open: OpenReplica | null): boolean => open === null;

/**
 * The open replica (null before sign-in or while it opens). The replica that opens arrives in a
 * transition: every screen reading the replica renders then, and a store subscription
 * (`useSyncExternalStore`) would render them all at once and flush their effects in the same task,
 * the longest task of a warm start after the replica's own open (issue 13). A replica that closes
 * is dropped by an ordinary update, never held back behind a pending transition.
 */
export const useReplica = (): OpenReplica | null => useInTransition(replicaStore.subscribe, replicaStore.get, isClosed);

interface Shown<T> {
  open: OpenReplica;
  factory: unknown;
  data: T;
  /** The collection's first pull was running when `data` was current. */
  pending: boolean;
}

/**
 * Subscribes to `factory(replica)` while the replica is open. `factory` must be memoised
 * (useCallback): a new function is a new subscription, and an inline one would resubscribe forever.
 */
export function useLive<T>(
  collection: ReplicaCollectionName,
  factory: ((open: OpenReplica) => Observable<T>) | null,
  initial: T,
  isEmpty: (data: T) => boolean,
): Live<T> {
  const open = useReplica();
  const [shown, setShown] = useState<Shown<T> | null>(null);

  useEffect(() => {
    if (!open || !factory) return;
    const pendingNow = () => isFirstPullPending(replicationStatus.get(), collection);
    let latest: { data: T } | null = null;
    let pending = pendingNow();
    // The data and the first pull's flag travel in one state, set in a transition: React renders
    // what the data changes in slices that yield to the browser (a whole screen's data arrives at
    // once when the replica opens: issue 13), and a pull that finishes while the rows it wrote are
    // still in a pending transition never shows "nothing here" (nor has that height remembered,
    // ../held-layout) before them.
    const show = () => {
      if (!latest) return;
      const next: Shown<T> = { open, factory, data: latest.data, pending };
      startTransition(() => setShown(next));
    };
    const subscription = factory(open).subscribe({
      next: (data) => {
        latest = { data };
        pending = pendingNow();
        show();
      },
      // A closed database or an undecryptable document: show nothing rather than crash the screen.
      error: (error: unknown) => console.error('A replica query failed', error),
    });
    // Only this collection's flag: the status changes with every request of every replication (17
    // at start), and each change re-rendered every screen that reads the replica.
    const stopWatching = replicationStatus.subscribe(() => {
      const now = pendingNow();
      if (now === pending) return;
      pending = now;
      show();
    });
    return () => {
      stopWatching();
      subscription.unsubscribe();
    };
  }, [open, factory, collection]);

  // The same database under a newer identity (its homes changed) keeps what it showed until the
  // new subscription answers, instead of "Loading…" for a moment; another person's is another database.
  const current = shown && open && shown.open.db === open.db && shown.factory === factory ? shown : null;
  if (!open || !factory) return { data: initial, loading: !open };
  if (!current) return { data: initial, loading: true };
  return { data: current.data, loading: current.pending && isEmpty(current.data) };
}
