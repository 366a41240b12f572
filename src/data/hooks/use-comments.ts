import { useCallback, useEffect } from 'react';
import { getReplication } from '../replica/lifecycle';
import type { OpenReplica } from '../replica/replica-store';
import type { CommentDoc, EntryType } from '../replica/types';
import { commentsReplication } from '../replication/endpoints';
import { comments$ } from './entry-queries';
import { useLive, useReplica, type Live } from './use-live';

const none: CommentDoc[] = [];

/**
 * An entry's comments, oldest first. While mounted, the entry's comment list is pulled (and
 * re-pulled on `journal`/`voice`/`feedback` change events); offline it shows what the replica has.
 * An entry written on this device and not sent yet has no thread on the server: nothing is pulled.
 */
export function useComments(entryType: EntryType, entryId: string | null, pull = true): Live<CommentDoc[]> {
  const open = useReplica();
  useEffect(() => {
    if (!open || !entryId || !pull) return;
    let release: (() => void) | null = null;
    let cancelled = false;
    void open.db[entryType]
      .findOne(entryId)
      .exec()
      .then((doc) => {
        if (cancelled || (doc && doc.toJSON().local_only)) return;
        release = getReplication()?.acquire(commentsReplication(entryType, entryId)) ?? null;
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      release?.();
    };
  }, [open, entryType, entryId, pull]);
  const factory = useCallback((replica: OpenReplica) => comments$(replica.db, entryType, entryId ?? ''), [entryType, entryId]);
  return useLive('comments', entryId ? factory : null, none, (list) => list.length === 0);
}
