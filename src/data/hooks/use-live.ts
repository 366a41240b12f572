import { startTransition, useEffect, useState } from 'react';
import type { Observable } from 'rxjs';
import { useStore, useStoreSelector } from '../create-store';
import type { ReplicaCollectionName } from '../replica/local-writes';
import { replicaStore, type OpenReplica } from '../replica/replica-store';
import { replicationStatus } from '../replication/sync-status';

/** What every data hook returns. */
export interface Live<T> {
  data: T;
  /** The replica is not open yet, or its first pull is still running and it has nothing to show. */
  loading: boolean;
}

/** The open replica (null before sign-in or while it opens). */
export const useReplica = (): OpenReplica | null => useStore(replicaStore);

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
  // Only this collection's flag: the status changes with every request of every replication (17 at
  // start), and each change re-rendered every screen that reads the replica.
  const firstPullPending = useStoreSelector(replicationStatus, (status) => status.firstPullPending.has(collection));
  const [state, setState] = useState<{ open: OpenReplica; factory: unknown; data: T } | null>(null);

  useEffect(() => {
    if (!open || !factory) return;
    const subscription = factory(open).subscribe({
      // A transition: React renders what the data changes in slices that yield to the browser, not
      // in one long task (a whole screen's data arrives at once when the replica opens: issue 13).
      next: (data) => startTransition(() => setState({ open, factory, data })),
      // A closed database or an undecryptable document: show nothing rather than crash the screen.
      error: (error: unknown) => console.error('A replica query failed', error),
    });
    return () => subscription.unsubscribe();
  }, [open, factory]);

  const current = state && state.open === open && state.factory === factory ? state : null;
  if (!open || !factory) return { data: initial, loading: !open };
  if (!current) return { data: initial, loading: true };
  return { data: current.data, loading: firstPullPending && isEmpty(current.data) };
}
