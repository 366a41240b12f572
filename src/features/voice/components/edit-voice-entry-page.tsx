import { Link, useNavigate, useParams } from 'react-router-dom';
import { EntryForm } from '@/entries/components/entry-form';
import { NotSentNote } from '@/entries/components/not-sent-note';
import { entryEditDraftKey } from '@/entries/data/draft-keys';
import { LockedEntryNotice } from '@/entries/components/locked-entry-notice';
import { useLockedWhenOpened } from '@/entries/components/use-locked-when-opened';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { messages } from '@/contract/messages';
import { useAssociatedUsers } from '@/data/hooks';
import { useEmojis, useVoiceCategories, useVoiceEntry } from '@/entries/hooks/use-entries';
import { useEntryFile } from '@/entries/hooks/use-entry-file';
import { saveVoiceEntry } from '../actions/save-voice-entry';

/** Change something sent with Voice (not once staff closed the conversation: then it says why). */
export function EditVoiceEntryPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const entry = useVoiceEntry(id || null);
  const staff = useAssociatedUsers().data;
  const emojis = useEmojis().data;
  const categories = useVoiceCategories().data;
  const doc = entry.data;
  const locked = useLockedWhenOpened(doc);
  const canvasUrl = useEntryFile(doc?.canvas?.id ?? null, 'voice');

  return (
    <div className="page page--prose">
      <PageHeading>Edit voice entry</PageHeading>
      {entry.loading ? <LoadingText /> : null}
      {!entry.loading && !doc ? (
        <EmptyState
          title="We can’t find this entry."
          actions={
            <Link to="/voice/entries" className="button button--primary">
              Back to my messages
            </Link>
          }
        >
          {messages.voiceMissingData}
        </EmptyState>
      ) : null}
      {doc && locked ? <LockedEntryNotice conversationTo={`/voice/comments/${doc.id}`} backTo="/voice/entries" backLabel="Back to my messages" /> : null}
      {doc && !locked ? <NotSentNote entry={doc} /> : null}
      {doc && !locked ? (
        <EntryForm
          key={doc.id}
          kind="voice"
          draftKey={entryEditDraftKey('voice', doc.id)}
          initial={{
            description: doc.description ?? '',
            reaction: doc.reaction,
            sharedWith: doc.shared_with,
            sharedWithManagement: doc.shared_with_management,
            categoryId: doc.category_id,
            existingFiles: doc.files,
            hasCanvas: Boolean(doc.canvas),
          }}
          staff={staff}
          emojis={emojis}
          categories={categories}
          submitLabel="Save changes"
          onSubmit={(draft) => saveVoiceEntry({ ...draft, categoryId: draft.categoryId || doc.category_id }, doc.id)}
          existingCanvasUrl={canvasUrl}
          onSaved={() => void navigate('/voice/entries')}
        />
      ) : null}
    </div>
  );
}
