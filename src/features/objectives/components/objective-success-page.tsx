import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function ObjectiveSuccessPage() {
  return (
    <div className="page">
      <PageHeading>Well done</PageHeading>
      <EmptyState
        title="Nothing to celebrate yet."
        actions={
          <>
          <Link to="/objectives" className="button button--primary">
            Back to objectives
          </Link>
          </>
        }
      >
        When you finish an objective, we will celebrate it here.
      </EmptyState>
    </div>
  );
}
