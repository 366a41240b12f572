import { Link, useParams } from 'react-router-dom';
import { CommentThread } from '@/entries/components/comment-thread';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { messages } from '@/contract/messages';
import { useJournalEntry } from '../../../entries/hooks/use-entries';
import { postJournalComment } from '../actions/post-journal-comment';
import { updateJournalComment } from '../actions/update-journal-comment';

/** A journal entry and the comments on it. */
export function EntryCommentsPage() {
  const { id = '' } = useParams();
  const entry = useJournalEntry(id || null);

  return (
    <div className="page page--prose">
      <PageHeading>Comments</PageHeading>
      {entry.loading ? <LoadingText /> : null}
      {!entry.loading && !entry.data ? (
        <EmptyState
          title="We can’t show this entry."
          actions={
            <Link to="/journal/entries" className="button button--primary">
              Back to journal entries
            </Link>
          }
        >
          {messages.voiceMissingData}
        </EmptyState>
      ) : null}
      {entry.data ? <CommentThread entryType="journal" entry={entry.data} post={postJournalComment} update={updateJournalComment} /> : null}
      <p>
        <Link to="/journal/entries">Back to journal entries</Link>
      </p>
    </div>
  );
}
