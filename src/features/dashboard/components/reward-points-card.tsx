import { Link } from 'react-router-dom';
import { Icon } from '@/components/icon';
import { useHeldHeight } from '@/components/use-held-layout';

const pointsWord = (n: number) => (n === 1 ? 'point' : 'points');

/**
 * The reward counter: "You have N points", linking to /rewards; points of a review still on its way
 * show as on their way ("· 20 on their way"), never as if they had arrived; points set aside for a
 * swap still waiting to be sent are already off N and said as such ("· 50 set aside for a swap").
 */
export function RewardPointsCard({ points, pending = 0, spending = 0 }: { points: number | null; pending?: number; spending?: number }) {
  const held = useHeldHeight('dashboard.points', points === null);
  return (
    <Link ref={held.ref} style={held.style} to="/rewards" className="points-card">
      <span className="points-card__star" aria-hidden="true">
        <Icon name="rewards" size={32} />
      </span>
      <span className="points-card__text">
        {points === null ? (
          <span className="points-card__count">Loading your points…</span>
        ) : (
          <span className="points-card__count">
            You have <strong className="points-card__number">{points}</strong> {pointsWord(points)}
            {pending > 0 ? <span className="points-card__pending"> · {pending} on their way</span> : null}
            {spending > 0 ? <span className="points-card__pending"> · {spending} set aside for a swap</span> : null}
          </span>
        )}
        <span className="points-card__hint">Swap them for rewards</span>
      </span>
    </Link>
  );
}
