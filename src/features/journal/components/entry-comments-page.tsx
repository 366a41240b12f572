import { useParams } from 'react-router-dom';
import { EntryThreadPage } from '@/entries/components/entry-thread-page';
import { useJournalEntry } from '@/entries/hooks/use-entries';
import { postJournalComment } from '../actions/post-journal-comment';
import { updateJournalComment } from '../actions/update-journal-comment';

/** A journal entry and the comments on it. */
export function EntryCommentsPage() {
  const { id = '' } = useParams();
  const entry = useJournalEntry(id || null);
  return (
    <EntryThreadPage
      entryType="journal"
      entry={entry}
      heading="Comments"
      backTo="/journal/entries"
      backLabel="Back to journal entries"
      post={postJournalComment}
      update={updateJournalComment}
    />
  );
}
