import { Link, useNavigate, useParams } from 'react-router-dom';
import { EntryForm } from '@/entries/components/entry-form';
import { NotSentNote } from '@/entries/components/not-sent-note';
import { entryEditDraftKey } from '@/entries/data/draft-keys';
import { LockedEntryNotice } from '@/entries/components/locked-entry-notice';
import { useLockedWhenOpened } from '@/entries/components/use-locked-when-opened';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { useAssociatedUsers, useResidentDetails } from '@/data/hooks';
import { useEmojis, useJournalEntry } from '@/entries/hooks/use-entries';
import { useEntryFile } from '@/entries/hooks/use-entry-file';
import type { JournalDoc } from '@/data/replica/types';
import { saveJournalEntry } from '../actions/save-journal-entry';
import { journalSurfaceStyle } from '../journal-surface';
import './journal.css';

/**
 * /journal/edit/{id}: the entry's form, filled in; saving replaces it (or its unsent copy). A closed
 * conversation (locked_at) shows why it cannot be changed instead.
 */
export function EditJournalEntryPage() {
  const { id = '' } = useParams();
  const entry = useJournalEntry(id || null);
  const locked = useLockedWhenOpened(entry.data);

  if (!entry.data) {
    return (
      <div className="page journal">
        <PageHeading>Edit journal entry</PageHeading>
        {entry.loading ? (
          <LoadingText />
        ) : (
          <EmptyState
            title="This journal entry is not on this device right now."
            actions={
              <Link to="/journal/entries" className="button button--primary">
                Back to my entries
              </Link>
            }
          >
            It may still be on its way, or it may have been removed. Try again when you are online.
          </EmptyState>
        )}
      </div>
    );
  }
  if (locked) {
    return (
      <div className="page journal">
        <PageHeading>Edit journal entry</PageHeading>
        <LockedEntryNotice conversationTo={`/entries/comments/${entry.data.id}`} backTo="/journal/entries" backLabel="Back to my entries" />
      </div>
    );
  }
  return <EditForm key={entry.data.id} entry={entry.data} />;
}

function EditForm({ entry }: { entry: JournalDoc }) {
  const navigate = useNavigate();
  const details = useResidentDetails();
  const staff = useAssociatedUsers();
  const emojis = useEmojis();
  const canvasUrl = useEntryFile(entry.canvas?.id ?? null, 'journal');

  return (
    <div className="page journal">
      <PageHeading>Edit journal entry</PageHeading>
      <NotSentNote entry={entry} />
      <EntryForm
        kind="journal"
        draftKey={entryEditDraftKey('journal', entry.id)}
        initial={{
          description: entry.description ?? '',
          reaction: entry.reaction,
          sharedWith: entry.shared_with,
          sharedWithManagement: entry.shared_with_management,
          entryDate: entry.entry_date,
          entryTime: entry.entry_time,
          existingFiles: entry.files,
          hasCanvas: Boolean(entry.canvas),
        }}
        existingCanvasUrl={canvasUrl}
        staff={staff.data}
        emojis={emojis.data}
        surface={journalSurfaceStyle(details.data?.app_settings)}
        submitLabel="Save changes"
        onSubmit={(draft) => saveJournalEntry(draft, entry.id)}
        onSaved={() => void navigate('/journal/entries')}
      />
      <p>
        <Link to="/journal/entries">Back to my entries</Link>
      </p>
    </div>
  );
}
