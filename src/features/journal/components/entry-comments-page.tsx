import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function EntryCommentsPage() {
  return (
    <div className="page">
      <PageHeading>Comments</PageHeading>
      <EmptyState
        title="No comments yet."
        actions={
          <>
          <Link to="/journal/entries" className="button button--primary">
            Back to journal entries
          </Link>
          </>
        }
      >
        When someone replies to this entry, their comments will show here.
      </EmptyState>
    </div>
  );
}
