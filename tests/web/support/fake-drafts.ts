import { draftHasContent } from '@/data/drafts';
import type { Draft } from '@/data/hooks/use-draft';

/**
 * Drafts on "the device" for screen tests: src/data/hooks/use-draft over a map instead of the
 * replica (the replica's drafts have their own tests: tests/data/drafts.test.ts). Survives an
 * unmount, as the replica does a reload.
 */
export const fakeDrafts = {
  map: new Map<string, { value: unknown; at: number }>(),
  clock: 0,
  /** The replica still opening: no draft is known yet (a store still lands, as saveDraft waits for it). */
  opening: false,
  get: (key: string): unknown => fakeDrafts.map.get(key)?.value ?? null,
  set(key: string, value: unknown) {
    fakeDrafts.map.set(key, { value, at: ++fakeDrafts.clock });
  },
  reset() {
    fakeDrafts.map.clear();
    fakeDrafts.opening = false;
  },
};

export const draftHooks = {
  useDraft: <T>(key: string | null): Draft<T> => ({
    value: key && !fakeDrafts.opening ? (fakeDrafts.get(key) as T | null) : null,
    loading: Boolean(key) && fakeDrafts.opening,
    save: async (value: T) => {
      if (key) fakeDrafts.set(key, value);
      return Boolean(key);
    },
    clear: async () => {
      if (key) fakeDrafts.map.delete(key);
    },
  }),
  useKeptDraftKeys: (keys: readonly string[]) => {
    const kept = keys
      .map((key) => ({ key, stored: fakeDrafts.map.get(key) }))
      .filter((entry) => entry.stored && draftHasContent(entry.stored.value))
      .sort((a, b) => b.stored!.at - a.stored!.at);
    return { keys: kept.map((entry) => entry.key), loading: false };
  },
  useNewestDraft: (keys: readonly string[]) => ({ key: draftHooks.useKeptDraftKeys(keys).keys[0] ?? null, loading: false }),
};
