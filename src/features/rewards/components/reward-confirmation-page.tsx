import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function RewardConfirmationPage() {
  return (
    <div className="page">
      <PageHeading>Confirm reward</PageHeading>
      <EmptyState
        title="We can’t find this reward."
        actions={
          <>
          <Link to="/rewards" className="button button--primary">
            Back to rewards
          </Link>
          </>
        }
      >
        It may have been removed, or it is not on this device yet.
      </EmptyState>
    </div>
  );
}
