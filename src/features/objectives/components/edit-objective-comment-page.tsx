import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function EditObjectiveCommentPage() {
  return (
    <div className="page">
      <PageHeading>Edit comment</PageHeading>
      <EmptyState
        title="Comment not found"
        actions={
          <>
          <Link to="/objectives" className="button button--primary">
            Back to objectives
          </Link>
          </>
        }
      >
        It may have been removed, or it is not on this device yet.
      </EmptyState>
    </div>
  );
}
