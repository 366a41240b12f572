import { Link } from 'react-router-dom';
import { PageHeading } from '@/components/page-heading';
import { EmptyState } from '@/components/empty-state';

/** Its real empty state until the replica brings data (later issues). */
export function RewardHistoryPage() {
  return (
    <div className="page">
      <PageHeading>Reward history</PageHeading>
      <EmptyState
        title="No rewards swapped yet."
        actions={
          <>
          <Link to="/rewards" className="button button--primary">
            Back to rewards
          </Link>
          </>
        }
      >
        Rewards you ask for will be listed here, showing whether each is approved, pending or denied.
      </EmptyState>
    </div>
  );
}
