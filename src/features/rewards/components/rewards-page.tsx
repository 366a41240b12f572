import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function RewardsPage() {
  return (
    <div className="page">
      <PageHeading>Rewards</PageHeading>
      <EmptyState
        title="No rewards to choose from yet."
        actions={
          <>
          <Link to="/rewards/history" className="button button--primary">
            Reward history
          </Link>
          </>
        }
      >
        When your home adds rewards, you can swap your points for them here.
      </EmptyState>
    </div>
  );
}
