import { Link, useParams } from 'react-router-dom';
import { CommentThread } from '@/entries/components/comment-thread';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { messages } from '@/contract/messages';
import { useVoiceCategories, useVoiceEntry } from '../../../entries/hooks/use-entries';
import { postVoiceComment } from '../actions/post-voice-comment';
import { updateVoiceComment } from '../actions/update-voice-comment';

/** A voice entry and its conversation with staff. */
export function VoiceCommentsPage() {
  const { id = '' } = useParams();
  const entry = useVoiceEntry(id || null);
  const categories = useVoiceCategories().data;
  const category = entry.data ? categories.find((c) => c.id === entry.data?.category_id) : undefined;

  return (
    <div className="page page--prose">
      <PageHeading>{category ? `Comments: ${category.name}` : 'Comments'}</PageHeading>
      {entry.loading ? <LoadingText /> : null}
      {!entry.loading && !entry.data ? (
        <EmptyState
          title="We can’t show this entry."
          actions={
            <Link to="/voice/entries" className="button button--primary">
              Back to my messages
            </Link>
          }
        >
          {messages.voiceMissingData}
        </EmptyState>
      ) : null}
      {entry.data ? <CommentThread entryType="voice" entry={entry.data} post={postVoiceComment} update={updateVoiceComment} /> : null}
      <p>
        <Link to="/voice/entries">Back to my messages</Link>
      </p>
    </div>
  );
}
