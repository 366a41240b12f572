import { useCallback } from 'react';
import { map } from 'rxjs';
import { deleteDraft, draftId, draftValueOf, saveDraft } from '../drafts';
import type { OpenReplica } from '../replica/replica-store';
import type { FileDoc } from '../replica/types';
import { useLive } from './use-live';

export interface Draft<T> {
  /** The stored draft (null when there is none). */
  readonly value: T | null;
  /** The replica is not open yet: the draft is not known. */
  readonly loading: boolean;
  save(value: T): Promise<boolean>;
  clear(): Promise<void>;
}

/**
 * The draft under `key` (src/data/drafts.ts: encrypted in the replica, kept across reloads, wiped
 * at sign-out), live, with its save and clear. `key` null: no draft.
 */
export function useDraft<T>(key: string | null): Draft<T> {
  const factory = useCallback(
    (open: OpenReplica) =>
      open.db.files.findOne(draftId(key ?? '')).$.pipe(map((doc) => draftValueOf<T>(doc ? (doc.toJSON() as unknown as FileDoc) : null))),
    [key],
  );
  const live = useLive<T | null>('files', key ? factory : null, null, () => false);
  const save = useCallback((value: T) => (key ? saveDraft(key, value) : Promise.resolve(false)), [key]);
  const clear = useCallback(() => (key ? deleteDraft(key) : Promise.resolve()), [key]);
  return { value: live.data, loading: Boolean(key) && live.loading, save, clear };
}
