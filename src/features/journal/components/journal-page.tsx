import { Link, useNavigate } from 'react-router-dom';
import { EntryForm } from '@/entries/components/entry-form';
import { newJournalDraftKey } from '@/entries/data/draft-keys';
import { FirstVisitNote } from '@/entries/components/first-visit-note';
import { PageHeading } from '@/components/page-heading';
import { useAssociatedUsers, useResidentDetails } from '@/data/hooks';
import { useEmojis } from '@/entries/hooks/use-entries';
import { useFirstIndexVisit } from '@/data/hooks/use-first-index-visit';
import { saveJournalEntry } from '../actions/save-journal-entry';
import { journalSurfaceStyle } from '../journal-surface';
import type { JournalSubmittedState } from './journal-submitted';
import './journal.css';

/** /journal: write a new entry on the person's own paper; their entries and the look are one tap away. */
export function JournalPage() {
  const navigate = useNavigate();
  const details = useResidentDetails();
  const staff = useAssociatedUsers();
  const emojis = useEmojis();
  const surface = journalSurfaceStyle(details.data?.app_settings);

  const firstVisit = useFirstIndexVisit('journal');

  return (
    <div className="page journal">
      <PageHeading>Write in your journal</PageHeading>
      <p className="journal__intro">This is your private space. Only you can see an entry unless you choose to share it.</p>
      <FirstVisitNote show={firstVisit} title="New to your journal?">
        <ul>
          <li>Write about your day, draw a picture, pick how you feel, or add a photo. One of them is enough.</li>
          <li>It works without Wi-Fi: what you save is kept on this device and sent when you are back online.</li>
          <li>If you share an entry, the people you chose can read it and reply.</li>
          <li>Everything you wrote is in My entries. Customise changes your journal's colour and paper.</li>
        </ul>
      </FirstVisitNote>
      <nav className="actions journal__links" aria-label="Journal">
        <Link to="/journal/entries" className="button button--secondary">
          My entries
        </Link>
        <Link to="/journal/customise" className="button button--secondary">
          Customise
        </Link>
      </nav>
      <EntryForm
        kind="journal"
        draftKey={newJournalDraftKey}
        staff={staff.data}
        emojis={emojis.data}
        surface={surface}
        submitLabel="Save entry"
        onSubmit={(draft) => saveJournalEntry(draft)}
        onSaved={(result) => {
          // SPEC §4's submitted toggle: the list shows a calm confirmation until the person moves on.
          const state: JournalSubmittedState = { submitted: { queuedOffline: result.queuedOffline } };
          void navigate('/journal/entries', { state });
        }}
      />
    </div>
  );
}
