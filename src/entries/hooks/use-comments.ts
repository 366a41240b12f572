import type { EntryKind } from '@/contract/entry-kind';
import { useCallback, useEffect } from 'react';
import type { RxDocument } from 'rxdb';
import type { Observable } from 'rxjs';
import { getReplication } from '../../data/replica/lifecycle';
import type { OpenReplica } from '../../data/replica/replica-store';
import type { CommentDoc } from '../../data/replica/types';
import { commentsReplication } from '../../data/replication/endpoints';
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
    let release: (() => void) | null = null;
    // Watched, not read once: an entry sent while its thread is open gets its thread pulled then.
    const entry$ = open.db[entryType].findOne(entryId).$ as Observable<RxDocument<{ local_only: boolean }> | null>;
    const subscription = entry$.subscribe((doc) => {
      if (release || (doc && doc.toJSON().local_only)) return;
      release = getReplication()?.acquire(commentsReplication(entryType, entryId)) ?? null;
    });
    return () => {
      subscription.unsubscribe();
      release?.();
    };
  }, [open, entryType, entryId, pull]);
  const factory = useCallback((replica: OpenReplica) => comments$(replica.db, entryType, entryId ?? ''), [entryType, entryId]);
  return useLive('comments', entryId ? factory : null, none, (list) => list.length === 0);
}
