import type { PointsSummary } from '@/data/hooks';
import { pointsText } from '../reward-texts';

/**
 * The balance as every rewards screen shows it (usePoints: the same number as the dashboard's
 * counter): points of a review still on their way, and points set aside for a swap still waiting
 * to be sent, are said as such.
 */
export function PointsLine({ points }: { points: PointsSummary | null }) {
  if (!points) {
    return (
      <p className="rewards__balance" aria-live="polite">
        Loading your points…
      </p>
    );
  }
  return (
    <div className="rewards__balance" aria-live="polite">
      <p>
        You have <strong className="rewards__balance-number">{pointsText(points.balance)}</strong>
        {points.pending > 0 ? <span className="rewards__balance-extra"> · {pointsText(points.pending)} on their way</span> : null}
      </p>
      {points.spending > 0 ? (
        <p className="rewards__balance-extra">
          {pointsText(points.spending)} {points.spending === 1 ? 'is' : 'are'} set aside for a swap that is waiting to be sent.
        </p>
      ) : null}
    </div>
  );
}
