import { Link, useParams } from 'react-router-dom';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { REVIEW_POINTS, taskMessages } from '@/contract/tasks';
import { usePoints } from '@/data/hooks/use-points';
import { useAccount } from '@/data/session-store';
import { useOnlineStatus } from '@/data/use-online-status';
import { useTaskLog } from '../hooks/use-task-log';
import { objectivePath } from '../task-dates';
import { ObjectiveNotFound } from './objective-not-found';
import './objectives.css';

const pointsText = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;

/**
 * /objectives/{task_log_id}/success: after a review, "+20 points" and the total (points of a review
 * still on its way shown as on their way; "when you are back online" only while offline). Calm on
 * purpose: no nudge to spend them (ICO Children's Code, standard 13).
 */
export function ObjectiveSuccessPage() {
  const { task_log_id: logId = '' } = useParams();
  const view = useTaskLog(logId);
  const points = usePoints();
  const me = useAccount()?.user.id ?? null;
  const online = useOnlineStatus();
  const { log, thread } = view.data;

  if (!log) {
    return (
      <div className="page page--prose objective">
        <PageHeading>Objective complete</PageHeading>
        {view.loading ? <LoadingText /> : <ObjectiveNotFound />}
      </div>
    );
  }

  const review = thread.find((comment) => comment.is_review && comment.creator.id === me) ?? null;
  const waiting = review?.sync_state === 'pending';
  const reviewed = (review && review.sync_state !== 'failed') || log.reviewed;
  return (
    <div className="page page--prose objective">
      <PageHeading>{reviewed ? `+${REVIEW_POINTS} points` : 'Not reviewed yet'}</PageHeading>
      {reviewed ? (
        <>
          <p className="lead">Thank you for reviewing “{log.task.title}”.</p>
          {waiting ? (
            <p className="objective__note" role="status">
              {online ? `Your review is being sent. Your ${REVIEW_POINTS} points arrive when it is sent.` : taskMessages.reviewPointsOffline}
            </p>
          ) : null}
          {points.data ? (
            <p className="objective__total" role="status">
              You have {pointsText(points.data.balance)}
              {points.data.pending > 0 ? ` · ${pointsText(points.data.pending)} on their way` : ''}.
            </p>
          ) : null}
        </>
      ) : (
        <p>You can review “{log.task.title}” from its page.</p>
      )}
      <p className="objective__links">
        <Link to={objectivePath(log.id)} className="button button--primary">
          Back to the objective
        </Link>
        <Link to="/objectives?tab=1" className="button button--secondary">
          All objectives
        </Link>
      </p>
    </div>
  );
}
