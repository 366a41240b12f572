import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { usePoints } from '@/data/hooks/use-points';
import { useRewards } from '../hooks/use-rewards';
import { HISTORY_PATH } from '../reward-paths';
import { PointsLine } from './points-line';
import { RewardCard } from './reward-card';
import './rewards.css';

/**
 * /rewards: the balance, the home's rewards with their pictures, what each costs and whether it is
 * affordable now, and the way to the history. All from the replica: it works offline.
 */
export function RewardsPage() {
  const rewards = useRewards();
  const points = usePoints();
  const balance = points.data?.balance ?? null;
  return (
    <div className="page rewards">
      <PageHeading>Rewards</PageHeading>
      <PointsLine points={points.data} />
      <p className="rewards__links">
        <Link to={HISTORY_PATH} className="rewards__link">
          Your reward history
        </Link>
      </p>
      <HeldRegion name="rewards.list" loading={rewards.loading}>
        {rewards.loading ? (
          <LoadingText />
        ) : rewards.data.length === 0 ? (
          <EmptyState title="No rewards to choose from yet.">When your home adds rewards, you can swap your points for them here.</EmptyState>
        ) : (
          <ul className="rewards__list" aria-label="Rewards">
            {rewards.data.map((reward) => (
              <li key={reward.id}>
                <RewardCard reward={reward} balance={balance} />
              </li>
            ))}
          </ul>
        )}
      </HeldRegion>
    </div>
  );
}
