import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function VoiceCommentsPage() {
  return (
    <div className="page">
      <PageHeading>Comments</PageHeading>
      <EmptyState
        title="No comments yet."
        actions={
          <>
          <Link to="/voice/entries" className="button button--primary">
            Back to Voice entries
          </Link>
          </>
        }
      >
        When staff reply to this Voice entry, their comments will show here.
      </EmptyState>
    </div>
  );
}
