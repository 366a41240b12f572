import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function JournalEntriesPage() {
  return (
    <div className="page">
      <PageHeading>Journal entries</PageHeading>
      <EmptyState
        title="No entries yet."
        actions={
          <>
          <Link to="/journal" className="button button--primary">
            Back to journal
          </Link>
          </>
        }
      >
        Your journal entries will be listed here, newest first.
      </EmptyState>
    </div>
  );
}
