import { useParams } from 'react-router-dom';
import { EntryThreadPage } from '@/entries/components/entry-thread-page';
import { useVoiceCategories, useVoiceEntry } from '@/entries/hooks/use-entries';
import { postVoiceComment } from '../actions/post-voice-comment';
import { updateVoiceComment } from '../actions/update-voice-comment';

/** A voice entry and its conversation with staff. */
export function VoiceCommentsPage() {
  const { id = '' } = useParams();
  const entry = useVoiceEntry(id || null);
  const categories = useVoiceCategories().data;
  const category = entry.data ? categories.find((c) => c.id === entry.data?.category_id) : undefined;
  return (
    <EntryThreadPage
      entryType="voice"
      entry={entry}
      heading={category ? `Comments: ${category.name}` : 'Comments'}
      backTo="/voice/entries"
      backLabel="Back to my messages"
      post={postVoiceComment}
      update={updateVoiceComment}
    />
  );
}
