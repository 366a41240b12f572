import { useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { FormView } from '@/components/form-renderer/form-view';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { taskMessages } from '@/contract/tasks';
import { useAccount } from '@/data/session-store';
import { PlainText } from '@/entries/components/attachments';
import { ReplyForm } from '@/entries/components/reply-form';
import { postTaskComment } from '../actions/post-task-comment';
import { useFormNames } from '@/data/hooks/use-form-names';
import { taskLogFiles } from '../hooks/use-objective-files';
import { useTaskLog } from '../hooks/use-task-log';
import { formatTaskDate } from '../task-dates';
import { ReviewSection } from './review-section';
import { ObjectiveNotFound } from './objective-not-found';
import { TaskThread } from './task-thread';
import '@/entries/components/comment-thread.css';
import './objectives.css';
import { replyDraftKey } from '@/entries/data/draft-keys';

export const COMMENT_FORM_MESSAGES = {
  required: taskMessages.commentRequired,
  failed: taskMessages.postCommentFailed,
  offline: 'You are offline, we will retry posting your comment when back online.',
} as const;

/**
 * /objectives/{task_log_id}: the objective (title, date, category, description, status), the filled
 * form (read-only, the shared renderer), the review, and the thread with its comment form. All from
 * the replica: it works offline, and a staff comment arrives when the tasks re-sync.
 */
export function ObjectivePage() {
  const { task_log_id: logId = '' } = useParams();
  const view = useTaskLog(logId);
  const account = useAccount();
  const formNames = useFormNames();
  const me = account?.user.id ?? null;
  const { log, thread } = view.data;
  const commentsTitle = useRef<HTMLHeadingElement>(null);

  if (!log) {
    return (
      <div className="page page--prose objective">
        <PageHeading>Objective</PageHeading>
        {view.loading ? <LoadingText /> : <ObjectiveNotFound />}
      </div>
    );
  }

  const completed = log.status === 'completed';
  const review = thread.find((comment) => comment.is_review && comment.creator.id === me) ?? null;
  return (
    <div className="page page--prose objective">
      <PageHeading>{log.task.title}</PageHeading>
      <ul className="objective__facts" aria-label="About this objective">
        <li>{formatTaskDate(log.task.task_date)}</li>
        <li className="badge">{log.task.form.name}</li>
        <li className={`badge badge--${log.status}`}>{completed ? 'Completed' : 'Current'}</li>
      </ul>
      {log.task.description ? <PlainText value={log.task.description} /> : null}

      <section className="objective__section card" aria-labelledby="objective-form-title">
        <h2 id="objective-form-title" className="section-title">
          {completed ? 'How it went' : 'So far'}
        </h2>
        <FormView fields={log.form_version.fields} answers={log.answers} files={taskLogFiles} relatedForms={formNames} headingLevel={3} />
      </section>

      <ReviewSection log={log} review={review} />

      <section className="objective__section" aria-labelledby="objective-comments-title">
        <h2 id="objective-comments-title" className="section-title" tabIndex={-1} ref={commentsTitle}>
          Comments
        </h2>
        <ReplyForm
          label="Add a comment"
          textLabel="Your comment"
          draftKey={replyDraftKey('task', log.id)}
          messages={COMMENT_FORM_MESSAGES}
          submitLabel="Post comment"
          successMessage="Your comment has been posted."
          onSubmit={(draft) => postTaskComment(log.id, { comment: draft.comment ?? '', files: draft.files ?? [] })}
        />
        <div className="objective__section">
          <TaskThread logId={log.id} comments={thread} me={me} onDiscarded={() => commentsTitle.current?.focus()} />
        </div>
      </section>

      <p className="objective__links">
        <Link to={`/objectives?tab=${completed ? 1 : 0}`}>Back to objectives</Link>
      </p>
    </div>
  );
}
