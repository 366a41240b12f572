import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { rewardMessages } from '@/contract/rewards';
import { usePoints } from '@/data/hooks/use-points';
import { exchangeReward } from '../actions/exchange-reward';
import { useReward } from '../hooks/use-rewards';
import { morePointsText, pointsText, rewardTexts } from '../reward-texts';
import { congratulationsPath, REWARDS_PATH } from '../reward-paths';
import { RewardNotFound } from './reward-not-found';
import { RewardPicture } from './reward-picture';
import './rewards.css';

/**
 * /rewards/{reward_id}/confirmation: asks before spending ("Swap 50 points for Pizza night?") with
 * the balance after it. Confirming queues the swap (the outbox sends it now or when back online)
 * and opens the congratulations. A reward the balance shown cannot afford, or one that is not in
 * the catalogue any more, offers no confirm button and says why.
 */
export function RewardConfirmationPage() {
  const { reward_id: rewardId = '' } = useParams();
  const reward = useReward(rewardId);
  const points = usePoints();
  const navigate = useNavigate();
  // The balance when "Yes" was pressed: the swap takes its cost off at once, and the page must not
  // turn into "you need more points" in the moment before the congratulations open.
  const [sending, setSending] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (!reward.data || !points.data) {
    return (
      <div className="page page--prose rewards">
        <PageHeading>Confirm reward</PageHeading>
        {reward.loading || (reward.data && !points.data) ? <LoadingText /> : <RewardNotFound />}
      </div>
    );
  }

  const item = reward.data;
  const balance = sending ?? points.data.balance;
  const affordable = balance >= item.points;

  const confirm = async () => {
    if (sending !== null) return;
    setSending(balance);
    setError(null);
    const result = await exchangeReward(item.id).catch(() => ({ ok: false as const, message: rewardMessages.redeemFailed, errors: {} }));
    if (result.ok) {
      navigate(congratulationsPath(item.id, result.id), { replace: true });
      return;
    }
    setSending(null);
    const reason = Object.values(result.errors)[0]?.[0];
    setError(reason && reason !== result.message ? `${result.message} ${reason}.` : result.message);
  };

  return (
    <div className="page page--prose rewards reward-confirm">
      <PageHeading>{affordable ? `Swap ${pointsText(item.points)} for ${item.name}?` : item.name}</PageHeading>
      <div className="reward-confirm__reward">
        <RewardPicture image={item.image} size="large" />
        {item.description ? <p className="reward-confirm__description">{item.description}</p> : null}
      </div>
      {affordable ? (
        <>
          <p className="reward-confirm__sum">
            You have {pointsText(balance)}. After this swap you will have <strong>{pointsText(balance - item.points)}</strong>.
          </p>
          <p>{rewardTexts.staffWillConfirm}</p>
          {error ? (
            <p className="rewards__error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="actions">
            {/* aria-disabled and the guard in confirm, not disabled: a disabled button drops the keyboard focus. */}
            <button type="button" className="button button--primary" aria-disabled={sending !== null || undefined} onClick={() => void confirm()}>
              {sending !== null ? 'Swapping…' : 'Yes, swap my points'}
            </button>
            <Link to={REWARDS_PATH} className="button button--secondary">
              Not now
            </Link>
          </div>
        </>
      ) : (
        <>
          <p className="reward-confirm__sum" role="status">
            {item.name} costs {pointsText(item.points)}. You have {pointsText(balance)}, so you need {morePointsText(item.points - balance)} before you can swap
            for it.
          </p>
          <p className="actions">
            <Link to={REWARDS_PATH} className="button button--primary">
              Back to rewards
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
