import { Link, useParams } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function ObjectiveCategoryPage() {
  const { category_name = '' } = useParams();
  return (
    <div className="page">
      <PageHeading>{category_name}</PageHeading>
      <EmptyState
        title="No objectives in this group yet."
        actions={
          <>
          <Link to="/objectives" className="button button--primary">
            Back to objectives
          </Link>
          </>
        }
      >
        Objectives in this group will be listed here, newest first.
      </EmptyState>
    </div>
  );
}
