import { Link } from 'react-router-dom';
import { Icon } from '@/components/icon';

/** The reward counter: "You have N points", linking to /rewards. */
export function RewardPointsCard({ points }: { points: number | null }) {
  return (
    <Link to="/rewards" className="points-card">
      <span className="points-card__star" aria-hidden="true">
        <Icon name="rewards" size={32} />
      </span>
      <span className="points-card__text">
        {points === null ? (
          <span className="points-card__count">Loading your points…</span>
        ) : (
          <span className="points-card__count">
            You have <strong className="points-card__number">{points}</strong> {points === 1 ? 'point' : 'points'}
          </span>
        )}
        <span className="points-card__hint">Swap them for rewards</span>
      </span>
    </Link>
  );
}
