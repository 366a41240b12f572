import { useCallback } from 'react';
import type { OpenReplica } from '../../data/replica/replica-store';
import type { EmojiDoc, JournalDoc, VoiceCategoryDoc, VoiceDoc } from '../../data/replica/types';
import { emojis$, entry$, voiceCategories$, voiceEntries$ } from './entry-queries';
import { journalReactions$ } from '../data/journal-reactions';
import { journalEntries$, type EntriesPage, type JournalFilters } from './journal-entries-query';
import { useLive, type Live } from '../../data/hooks/use-live';

/** The empty page of either list, before its query answers. */
const emptyPage: EntriesPage<never> = Object.freeze({ items: [], hasMore: false });
const noCategories: VoiceCategoryDoc[] = [];
const noEmojis: EmojiDoc[] = [];
const noReactions: string[] = [];

export interface JournalEntriesQuery {
  /** Words to find in the entries' text (matched on the device, over the decrypted text). */
  readonly search?: string;
  /** How many to show (raise it to load more). */
  readonly limit: number;
  /** Date range, reaction and sharing (on the device too). */
  readonly filters?: JournalFilters;
}

/** Journal entries, newest first (entry date and time), pending and failed ones included. */
export function useJournalEntries({ search = '', limit, filters = {} }: JournalEntriesQuery): Live<EntriesPage<JournalDoc>> {
  const { from, to, reaction, sharing } = filters;
  const factory = useCallback(
    (open: OpenReplica) => journalEntries$(open.db, search, limit, { from, to, reaction, sharing }),
    [search, limit, from, to, reaction, sharing],
  );
  return useLive('journal', factory, emptyPage, (page) => page.items.length === 0);
}

/**
 * The reactions the young person has used in their journal (for the list's reaction filter), from
 * their encrypted summary. `enabled` false holds it back (the list asks once its first page is on
 * screen; the summary's first build, once per device, reads every entry).
 */
export function useJournalReactions(enabled = true): Live<string[]> {
  const factory = useCallback((open: OpenReplica) => journalReactions$(open), []);
  return useLive('journal', enabled ? factory : null, noReactions, (list) => list.length === 0);
}

/** One journal entry (null when missing). */
export function useJournalEntry(id: string | null): Live<JournalDoc | null> {
  const factory = useCallback((open: OpenReplica) => entry$<JournalDoc>(open.db, 'journal', id ?? ''), [id]);
  return useLive('journal', id ? factory : null, null, (doc) => doc === null);
}

/** The newest `limit` voice entries; each carries category_id for grouping by category. */
export function useVoiceEntries(limit: number): Live<EntriesPage<VoiceDoc>> {
  const factory = useCallback((open: OpenReplica) => voiceEntries$(open.db, limit), [limit]);
  return useLive('voice', factory, emptyPage, (page) => page.items.length === 0);
}

export function useVoiceEntry(id: string | null): Live<VoiceDoc | null> {
  const factory = useCallback((open: OpenReplica) => entry$<VoiceDoc>(open.db, 'voice', id ?? ''), [id]);
  return useLive('voice', id ? factory : null, null, (doc) => doc === null);
}

/** Voice categories by name. */
export function useVoiceCategories(): Live<VoiceCategoryDoc[]> {
  const factory = useCallback((open: OpenReplica) => voiceCategories$(open.db), []);
  return useLive('lookups', factory, noCategories, (list) => list.length === 0);
}

/** The emoji reactions (GET /v1/tags/icons/emojis). */
export function useEmojis(): Live<EmojiDoc[]> {
  const factory = useCallback((open: OpenReplica) => emojis$(open.db), []);
  return useLive('lookups', factory, noEmojis, (list) => list.length === 0);
}
