import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { HeldRegion } from '@/components/held-region';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { usePoints } from '@/data/hooks/use-points';
import { useRewardHistory } from '../hooks/use-reward-history';
import { REWARDS_PATH } from '../reward-paths';
import { ExchangeItem } from './exchange-item';
import { PointsLine } from './points-line';
import './rewards.css';

/**
 * /rewards/history: every swap, newest first: approved, waiting for staff, denied (points given
 * back), and this device's swaps waiting to be sent or refused (Try again, Remove), each with its
 * points adjustment; the balance on top is the dashboard's. Live: a staff decision shows without a
 * reload. From the replica, so it works offline.
 */
export function RewardHistoryPage() {
  const history = useRewardHistory();
  const points = usePoints();
  const listTitle = useRef<HTMLHeadingElement>(null);
  // A swap removed: the focus goes to the list's heading, or, when it was the last one (the list
  // goes with it), to the page's heading.
  const last = history.data.length <= 1;
  const afterRemoval = () => (last ? document.getElementById('main-heading') : listTitle.current)?.focus();
  return (
    <div className="page page--prose rewards">
      <PageHeading>Reward history</PageHeading>
      <PointsLine points={points.data} />
      <HeldRegion name="rewards.history" loading={history.loading}>
        {history.loading ? (
          <LoadingText />
        ) : history.data.length === 0 ? (
          <EmptyState
            title="No rewards swapped yet."
            actions={
              <Link to={REWARDS_PATH} className="button button--primary">
                Back to rewards
              </Link>
            }
          >
            Rewards you ask for will be listed here, showing whether each is approved, pending or denied.
          </EmptyState>
        ) : (
          <section aria-labelledby="swaps-title">
            <h2 id="swaps-title" className="section-title" tabIndex={-1} ref={listTitle}>
              Your swaps
            </h2>
            <ul className="rewards__history">
              {history.data.map((item) => (
                <li key={item.id}>
                  <ExchangeItem item={item} onRemoved={afterRemoval} />
                </li>
              ))}
            </ul>
            <p>
              <Link to={REWARDS_PATH} className="rewards__link">
                Back to rewards
              </Link>
            </p>
          </section>
        )}
      </HeldRegion>
    </div>
  );
}
