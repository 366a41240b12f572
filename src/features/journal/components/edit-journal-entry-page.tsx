import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function EditJournalEntryPage() {
  return (
    <div className="page">
      <PageHeading>Edit journal entry</PageHeading>
      <EmptyState
        title="We can’t find this entry."
        actions={
          <>
          <Link to="/journal/entries" className="button button--primary">
            Back to journal entries
          </Link>
          </>
        }
      >
        It may have been removed, or it is not on this device yet.
      </EmptyState>
    </div>
  );
}
