import { saveEntry } from '@/entries/data/save-entry';
import type { EntryDraft, WriteResult } from '@/entries/data/types';

/**
 * Creates (no `id`) or updates a journal entry: validated on the device (contract texts), photos
 * resized, images checked when online, shown at once as pending, sent by the outbox now or when
 * back online. `queuedOffline` → show entryMessages.offlineRetry.
 */
export function saveJournalEntry(draft: EntryDraft, id?: string): Promise<WriteResult> {
  return saveEntry('journal', draft, id ? { id } : {});
}
