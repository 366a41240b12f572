import type { EntryKind } from '@/contract/entry-kind';
import { useCallback, useEffect } from 'react';
import type { RxDocument } from 'rxdb';
import type { Observable } from 'rxjs';
import type { OpenReplica } from '../../data/replica/replica-store';
import type { CommentDoc } from '../../data/replica/types';
import type { replicationStore as ReplicationStore } from '../../data/replica/lifecycle';
import type { commentsReplication as CommentsReplication } from '../../data/replication/endpoints';
import { comments$ } from './entry-queries';
import { useLive, useReplica, type Live } from '../../data/hooks/use-live';

const none: CommentDoc[] = [];

/**
 * An entry's comments, oldest first. While mounted, the entry's comment list is pulled (and
 * re-pulled on `journal`/`voice`/`feedback` change events); offline it shows what the replica has.
 * An entry written on this device and not sent yet has no thread on the server: nothing is pulled
 * until it has been sent.
 */
export function useComments(entryType: EntryKind, entryId: string | null, pull = true): Live<CommentDoc[]> {
  const open = useReplica();
  useEffect(() => {
    if (!open || !entryId || !pull) return;
    let stopped = false;
    let wanted = false;
    let release: (() => void) | null = null;
    let engine: { replication: typeof ReplicationStore; endpoint: ReturnType<typeof CommentsReplication> } | null = null;
    const acquire = () => {
      const handle = engine?.replication.get();
      if (stopped || release || !wanted || !engine || !handle) return;
      release = handle.acquire(engine.endpoint);
    };
    // Watched, not read once: an entry sent while its thread is open gets its thread pulled then.
    const entry$ = open.db[entryType].findOne(entryId).$ as Observable<RxDocument<{ local_only: boolean }> | null>;
    const subscription = entry$.subscribe((doc) => {
      if (doc && doc.toJSON().local_only) return;
      wanted = true;
      acquire();
    });
    // The replication (already loaded by the open replica) and its endpoints, by import: the thread's
    // screen does not carry them (issue 13); the replication may also start a moment after the open.
    let unwatch: () => void = () => undefined;
    void Promise.all([import('../../data/replica/lifecycle'), import('../../data/replication/endpoints')]).then(([lifecycle, endpoints]) => {
      if (stopped) return;
      engine = { replication: lifecycle.replicationStore, endpoint: endpoints.commentsReplication(entryType, entryId) };
      unwatch = lifecycle.replicationStore.subscribe(acquire);
      acquire();
    });
    return () => {
      stopped = true;
      subscription.unsubscribe();
      unwatch();
      release?.();
    };
  }, [open, entryType, entryId, pull]);
  const factory = useCallback((replica: OpenReplica) => comments$(replica.db, entryType, entryId ?? ''), [entryType, entryId]);
  return useLive('comments', entryId ? factory : null, none, (list) => list.length === 0);
}
