import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { EntryForm } from '@/entries/components/entry-form';
import { PageHeading } from '@/components/page-heading';
import { useAssociatedUsers, useResidentDetails } from '@/data/hooks';
import { useEmojis } from '@/entries/hooks/use-entries';
import { markIndexVisited } from '@/data/index-visited';
import { saveJournalEntry } from '../actions/save-journal-entry';
import { journalSurfaceStyle } from '../journal-surface';
import './journal.css';

/** /journal: write a new entry on the person's own paper; their entries and the look are one tap away. */
export function JournalPage() {
  const navigate = useNavigate();
  const details = useResidentDetails();
  const staff = useAssociatedUsers();
  const emojis = useEmojis();
  const surface = journalSurfaceStyle(details.data?.app_settings);

  useEffect(() => markIndexVisited('journal'), []);

  return (
    <div className="page journal">
      <PageHeading>Write in your journal</PageHeading>
      <p className="journal__intro">This is your private space. Only you can see an entry unless you choose to share it.</p>
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
        staff={staff.data}
        emojis={emojis.data}
        surface={surface}
        submitLabel="Save entry"
        onSubmit={(draft) => saveJournalEntry(draft)}
        onSaved={() => void navigate('/journal/entries')}
      />
    </div>
  );
}
