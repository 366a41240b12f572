import { Link } from 'react-router-dom';
import { Avatar } from '@/components/avatar';
import { RelativeTime } from '@/components/relative-time';
import { useUnsentCommentActions } from '@/entries/components/use-unsent-comment-actions';
import { taskMessages } from '@/contract/tasks';
import { useUserPhoto } from '@/data/hooks';
import type { ThreadComment } from '@/data/replica/task-overlays';
import { Files, PlainText } from '@/entries/components/attachments';
import { DiscardDialog, unsentDiscardText } from '@/entries/components/discard-dialog';
import { discardTaskComment } from '../actions/discard-task-comment';
import { retryTaskComment } from '../actions/retry-task-comment';
import { commentEditPath } from '../task-dates';

function CommentItem({ comment, mine, logId, onDiscarded }: { comment: ThreadComment; mine: boolean; logId: string; onDiscarded: () => void }) {
  const photo = useUserPhoto(comment.creator.has_photo ? comment.creator.id : null);
  const name = mine ? 'You' : `${comment.creator.first_name} ${comment.creator.last_name}`.trim() || 'Staff';
  const what = comment.is_review ? 'review' : 'comment';
  const unsent = useUnsentCommentActions({
    retry: () => retryTaskComment(logId, comment.id).catch(() => ({ ok: false as const, message: taskMessages.postCommentFailed, errors: {} })),
    discard: () => discardTaskComment(comment.id).catch(() => ({ ok: false as const, message: taskMessages.updateCommentFailed })),
    discarded: `The ${what} was discarded`,
    // The comment leaves the thread (or goes back to the server's copy, without Discard).
    onDiscarded,
  });

  return (
    <li className={`thread__comment${mine ? ' thread__comment--mine' : ''}`}>
      <article ref={unsent.article} tabIndex={-1} aria-label={`${comment.is_review ? 'Review' : 'Comment'} from ${name}`}>
        <header className="thread__meta">
          <Avatar src={photo} firstName={comment.creator.first_name} lastName={comment.creator.last_name} size={40} />
          <span className="thread__name">{name}</span>
          {comment.is_review ? <span className="badge objective__review-tag">Review</span> : null}
          <RelativeTime iso={comment.created_at} className="thread__time" />
          {comment.edited_at ? <span className="thread__time">(edited)</span> : null}
        </header>
        <PlainText value={comment.comment} />
        <Files files={comment.files} module="task_comment" />
        {mine && comment.sync_state === 'pending' ? (
          <p className="thread__state" role="status">
            Waiting to send
          </p>
        ) : null}
        {mine && comment.sync_state === 'failed' ? (
          <div role="alert">
            <p className="objective__failed">{comment.sync_message || (comment.local_only ? taskMessages.postCommentFailed : taskMessages.updateCommentFailed)}</p>
          </div>
        ) : null}
        {mine ? (
          <div className="objective__comment-actions">
            {comment.sync_state === 'failed' ? (
              // aria-disabled and a guard, not disabled: a disabled button drops the keyboard focus.
              <button type="button" className="button button--primary" aria-disabled={unsent.busy || undefined} onClick={() => void unsent.retry()}>
                Try again<span className="visually-hidden"> to send your {what}</span>
              </button>
            ) : null}
            <Link to={commentEditPath(logId, comment.id)} className="button button--ghost">
              Edit<span className="visually-hidden"> your {what}</span>
            </Link>
            {comment.sync_state === 'failed' ? (
              <button ref={unsent.discardButton} type="button" className="button button--ghost" aria-disabled={unsent.busy || undefined} onClick={unsent.ask}>
                Discard<span className="visually-hidden"> your {what}</span>
              </button>
            ) : null}
          </div>
        ) : null}
        {unsent.confirming ? (
          <DiscardDialog
            text={unsentDiscardText(`Discard your ${what}?`)}
            words={comment.comment ?? ''}
            busy={unsent.busy}
            onDiscard={() => void unsent.discard()}
            onKeep={unsent.keep}
          />
        ) : null}
      </article>
    </li>
  );
}

/**
 * An objective's comments, newest first (SPEC §4: a new comment goes to the front): staff's and the
 * young person's, with photos and files, and the state of the young person's own ones (waiting,
 * refused with the reason, and Try again). Own comments have an Edit link; nobody else's do.
 */
export function TaskThread({ logId, comments, me, onDiscarded }: { logId: string; comments: readonly ThreadComment[]; me: string | null; onDiscarded: () => void }) {
  if (comments.length === 0) return <p className="small-print">No comments yet. Comments from you and staff will show here.</p>;
  return (
    <ol className="thread__list" aria-label="Comments, newest first">
      {comments.map((comment) => (
        <CommentItem key={comment.id} comment={comment} mine={comment.creator.id === me} logId={logId} onDiscarded={onDiscarded} />
      ))}
    </ol>
  );
}
