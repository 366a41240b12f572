import { Link, useNavigate, useParams } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { taskMessages } from '@/contract/tasks';
import { useAccount } from '@/data/session-store';
import { ReplyForm } from '@/entries/components/reply-form';
import { updateTaskComment } from '../actions/update-task-comment';
import { useTaskLog } from '../hooks/use-task-log';
import { objectivePath } from '../task-dates';
import '@/entries/components/comment-thread.css';
import './objectives.css';
import { commentEditDraftKey } from '@/entries/data/draft-keys';

/** SPEC §8 gives the failure ("...updating your comment."), not these: a review is called one. */
const editMessages = (what: 'comment' | 'review') => ({
  required: taskMessages.commentRequired,
  failed: taskMessages.updateCommentFailed,
  offline: `You are offline, we will retry updating your ${what} when back online.`,
});

/**
 * /objectives/{task_log_id}/comment/edit/{comment_id}: the young person changes their own comment
 * or review (text, remove or add files). Anything else, or a comment not on this device: "Comment
 * not found" (SPEC §8).
 */
export function EditObjectiveCommentPage() {
  const { task_log_id: logId = '', comment_id: commentId = '' } = useParams();
  const navigate = useNavigate();
  const view = useTaskLog(logId);
  const me = useAccount()?.user.id ?? null;
  const comment = view.data.thread.find((c) => c.id === commentId && c.creator.id === me) ?? null;
  const back = view.data.log ? objectivePath(view.data.log.id) : '/objectives';
  const what = comment?.is_review ? 'review' : 'comment';

  return (
    <div className="page page--prose objective">
      <PageHeading>{comment?.is_review ? 'Edit your review' : 'Edit comment'}</PageHeading>
      {!comment && view.loading ? <LoadingText /> : null}
      {!comment && !view.loading ? (
        <EmptyState
          title={taskMessages.commentNotFound}
          actions={
            <Link to={back} className="button button--primary">
              {view.data.log ? 'Back to the objective' : 'Back to objectives'}
            </Link>
          }
        >
          It may have been removed, or it is not on this device yet.
        </EmptyState>
      ) : null}
      {comment ? (
        <>
          {view.data.log ? <p className="lead">On “{view.data.log.task.title}”</p> : null}
          <ReplyForm
            label={comment.is_review ? 'Edit your review' : 'Edit your comment'}
            textLabel={comment.is_review ? 'Your review' : 'Your comment'}
            messages={editMessages(what)}
            removableFiles
            draftKey={commentEditDraftKey(comment.id)}
            initial={{ comment: comment.comment, existingFiles: comment.files }}
            submitLabel="Save"
            successMessage={`Your ${what} has been updated.`}
            onSubmit={(draft) =>
              updateTaskComment(logId, comment.id, { comment: draft.comment ?? '', files: draft.files ?? [], removeFiles: draft.removeFiles ?? [] })
            }
            onDone={() => navigate(back)}
            onCancel={() => navigate(back)}
          />
        </>
      ) : null}
    </div>
  );
}
