import { useCallback } from 'react';
import { map } from 'rxjs';
import { deleteDraft, draftId, draftValueOf, keptDrafts$, saveDraft } from '../drafts';
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

const noneKept = { keys: [], of: null } as const;

/**
 * Of `keys`, those whose draft holds something, the one stored last first: a screen with a form per
 * thing (a comment's edit) opens the forms a person was writing in.
 */
export function useKeptDraftKeys(keys: readonly string[]): { readonly keys: readonly string[]; readonly loading: boolean } {
  const joined = keys.join('\n');
  const factory = useCallback(
    (open: OpenReplica) => {
      const wanted = joined === '' ? [] : joined.split('\n');
      return keptDrafts$(open, wanted).pipe(map((kept) => ({ keys: kept, of: joined })));
    },
    [joined],
  );
  const live = useLive<{ keys: readonly string[]; of: string | null }>('files', keys.length > 0 ? factory : null, noneKept, () => false);
  // Until the answer is for these keys (an earlier list's may still be shown), it is not known.
  return { keys: live.data.keys, loading: keys.length > 0 && (live.loading || live.data.of !== joined) };
}

/**
 * Of `keys`, the one whose draft holds something and was stored last (null when none): a screen
 * with a form per choice (voice's categories) opens the one the person was writing in.
 */
export function useNewestDraft(keys: readonly string[]): { readonly key: string | null; readonly loading: boolean } {
  const kept = useKeptDraftKeys(keys);
  return { key: kept.keys[0] ?? null, loading: kept.loading };
}
