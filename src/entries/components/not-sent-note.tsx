import './entry.css';
import type { EntryDoc } from '@/data/replica/types';

/**
 * Above an entry's edit form when the server refused what was sent: the form shows each field's
 * problem beside it, and this says the entry itself did not go.
 */
export function NotSentNote({ entry }: { entry: Pick<EntryDoc, 'sync_state' | 'sync_message'> }) {
  if (entry.sync_state !== 'failed' || !entry.sync_message) return null;
  return (
    <p className="entry-not-sent" role="alert">
      This entry was not sent: {entry.sync_message}
    </p>
  );
}
