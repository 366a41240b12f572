import { Link } from 'react-router-dom';
import { rewardTexts } from '../reward-texts';
import { REWARDS_PATH } from '../reward-paths';

/** A reward id the catalogue on this device does not have (unknown, paused or withdrawn). */
export function RewardNotFound() {
  return (
    <section className="rewards__notice" aria-labelledby="reward-missing-title">
      <h2 id="reward-missing-title" className="section-title">
        {rewardTexts.notFoundTitle}
      </h2>
      <p>{rewardTexts.notFound}</p>
      <p>
        <Link to={REWARDS_PATH} className="button button--primary">
          Back to rewards
        </Link>
      </p>
    </section>
  );
}
