import { useSyncExternalStore } from 'react';
import type { FakeReplica } from './entry-fixtures';

let state: FakeReplica = { voiceEntries: [], journalEntries: [], categories: [], emojis: [], comments: [], loading: false };
const listeners = new Set<() => void>();

export const fakeReplica = {
  get: (): FakeReplica => state,
  set(change: Partial<FakeReplica>) {
    state = { ...state, ...change };
    for (const listener of [...listeners]) listener();
  },
  reset() {
    state = { voiceEntries: [], journalEntries: [], categories: [], emojis: [], comments: [], loading: false };
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

export const useFakeReplica = (): FakeReplica => useSyncExternalStore(fakeReplica.subscribe, fakeReplica.get);

/** Stand-ins for src/entries/hooks/use-entries and use-comments, reading the fake replica. */
export const entryHooks = {
  useVoiceEntries: (limit: number) => {
    const r = useFakeReplica();
    return { data: { items: r.voiceEntries.slice(0, limit), hasMore: r.voiceEntries.length > limit }, loading: r.loading };
  },
  useVoiceEntry: (id: string | null) => {
    const r = useFakeReplica();
    return { data: r.voiceEntries.find((e) => e.id === id) ?? null, loading: r.loading };
  },
  useJournalEntry: (id: string | null) => {
    const r = useFakeReplica();
    return { data: r.journalEntries.find((e) => e.id === id) ?? null, loading: r.loading };
  },
  useJournalEntries: () => {
    const r = useFakeReplica();
    return { data: { items: r.journalEntries, hasMore: false }, loading: r.loading };
  },
  useVoiceCategories: () => {
    const r = useFakeReplica();
    return { data: r.categories, loading: r.loading };
  },
  useEmojis: () => {
    const r = useFakeReplica();
    return { data: r.emojis, loading: r.emojisLoading ?? false };
  },
  useComments: (_type: string, entryId: string | null) => {
    const r = useFakeReplica();
    return { data: r.comments.filter((c) => c.entry_id === entryId), loading: r.commentsLoading ?? r.loading };
  },
};
