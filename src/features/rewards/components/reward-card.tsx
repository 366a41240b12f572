import { Link } from 'react-router-dom';
import type { RewardDoc } from '@/data/replica/types';
import { morePointsText, pointsText } from '../reward-texts';
import { confirmationPath } from '../reward-paths';
import { RewardPicture } from './reward-picture';

/**
 * One reward of the catalogue: picture, name, description, what it costs and whether the balance
 * covers it now, said in words (never colour alone). Only an affordable reward offers the swap.
 */
export function RewardCard({ reward, balance }: { reward: RewardDoc; balance: number | null }) {
  const titleId = `reward-${reward.id}-title`;
  const affordable = balance !== null && balance >= reward.points;
  return (
    <article className={`reward-card${affordable ? ' reward-card--affordable' : ''}`} aria-labelledby={titleId}>
      <RewardPicture image={reward.image} />
      <div className="reward-card__body">
        <h2 id={titleId} className="reward-card__title">
          {reward.name}
        </h2>
        {reward.description ? <p className="reward-card__description">{reward.description}</p> : null}
        <p className="reward-card__cost">
          Costs <strong>{pointsText(reward.points)}</strong>
        </p>
        {balance === null ? null : affordable ? (
          <p className="reward-card__status reward-card__status--yes">
            <span aria-hidden="true">✓ </span>You have enough points
          </p>
        ) : (
          <p className="reward-card__status reward-card__status--no">You need {morePointsText(reward.points - balance)}</p>
        )}
        {affordable ? (
          <Link to={confirmationPath(reward.id)} className="button button--primary reward-card__action">
            Swap points<span className="visually-hidden"> for {reward.name}</span>
          </Link>
        ) : null}
      </div>
    </article>
  );
}
