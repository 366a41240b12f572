import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function FeedbackPage() {
  return (
    <div className="page">
      <PageHeading>Feedback</PageHeading>
      <EmptyState
        title="No new replies."
        actions={
          <>
          <Link to="/dashboard" className="button button--primary">
            Back to dashboard
          </Link>
          </>
        }
      >
        When staff reply to your journal or to Voice, you will see it here.
      </EmptyState>
    </div>
  );
}
