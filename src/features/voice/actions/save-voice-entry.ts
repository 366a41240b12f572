import { saveEntry } from '@/entries/data/save-entry';
import type { EntryDraft, WriteResult } from '@/entries/data/types';

/**
 * Creates (no `id`) or updates a voice entry (category required): the same path as journal
 * entries (src/entries/data/save-entry.ts).
 */
export function saveVoiceEntry(draft: EntryDraft, id?: string): Promise<WriteResult> {
  return saveEntry('voice', draft, id ? { id } : {});
}
