import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function RewardCongratulationsPage() {
  return (
    <div className="page">
      <PageHeading>Congratulations</PageHeading>
      <EmptyState
        title="No reward to celebrate yet."
        actions={
          <>
          <Link to="/rewards" className="button button--primary">
            Back to rewards
          </Link>
          </>
        }
      >
        When you swap your points for a reward, we will celebrate it here.
      </EmptyState>
    </div>
  );
}
