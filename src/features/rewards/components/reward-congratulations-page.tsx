import { Link, useParams, useSearchParams } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { rewardMessages } from '@/contract/rewards';
import { usePoints } from '@/data/hooks/use-points';
import { useOnlineStatus } from '@/data/use-online-status';
import { useRewardHistory } from '../hooks/use-reward-history';
import { pointsText, rewardTexts } from '../reward-texts';
import { HISTORY_PATH, REWARDS_PATH } from '../reward-paths';
import { RewardPicture } from './reward-picture';
import './rewards.css';

/**
 * /rewards/{reward_id}/congratulations?exchange={id}: celebrates calmly and says what happens next
 * (staff confirm it; offline: it is sent when back online). No nudge to spend more (ICO Children's
 * Code, standard 13): the ways on are the history and the dashboard, not the catalogue.
 */
export function RewardCongratulationsPage() {
  const { reward_id: rewardId = '' } = useParams();
  const [search] = useSearchParams();
  const exchangeId = search.get('exchange');
  const history = useRewardHistory();
  const points = usePoints();
  const online = useOnlineStatus();
  const item = history.data.find((e) => e.id === exchangeId) ?? history.data.find((e) => e.reward_id === rewardId) ?? null;

  if (!item) {
    return (
      <div className="page page--prose rewards">
        <PageHeading>Congratulations</PageHeading>
        {history.loading ? (
          <LoadingText />
        ) : (
          <EmptyState
            title="No reward to celebrate yet."
            actions={
              <Link to={REWARDS_PATH} className="button button--primary">
                Back to rewards
              </Link>
            }
          >
            When you swap your points for a reward, we will celebrate it here.
          </EmptyState>
        )}
      </div>
    );
  }

  const failed = item.sync_state === 'failed';
  const waiting = item.sync_state === 'pending';
  return (
    <div className="page page--prose rewards reward-celebrate">
      <PageHeading>{failed ? 'Your swap was not sent' : 'Well done!'}</PageHeading>
      <div className="reward-confirm__reward">
        <RewardPicture image={item.reward.image} size="large" />
      </div>
      {failed ? (
        <div role="alert">
          <p className="rewards__error">{item.sync_message || rewardMessages.redeemFailed}</p>
          <p>No points were taken. You can try again or remove it from your reward history.</p>
        </div>
      ) : (
        <>
          <p className="lead">
            You swapped {pointsText(item.points)} for <strong>{item.reward.name}</strong>.
          </p>
          <p role="status">
            {waiting
              ? online
                ? `Your swap is being sent. ${rewardTexts.staffWillConfirm}`
                : rewardTexts.offlineQueued
              : item.status === 'approved'
                ? 'Staff have approved it.'
                : item.status === 'denied'
                  ? `Staff said no this time, so your ${pointsText(item.refunded_points)} ${item.refunded_points === 1 ? 'was' : 'were'} given back.`
                  : rewardTexts.staffWillConfirm}
          </p>
          {points.data ? <p>You now have {pointsText(points.data.balance)}.</p> : null}
        </>
      )}
      <div className="actions">
        <Link to={HISTORY_PATH} className="button button--primary">
          See your reward history
        </Link>
        <Link to="/dashboard" className="button button--secondary">
          Back to dashboard
        </Link>
      </div>
    </div>
  );
}
