import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormFill } from '@/components/form-renderer/form-fill';
import { LoadingText } from '@/components/loading-text';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import { useToast } from '@/components/use-toast';
import type { EntryFile } from '@/contract/entries';
import { isAnswered, type Answers, type FileAnswer } from '@/contract/forms';
import { REVIEW_FORM_FIELDS, REVIEW_PHOTOS_FIELD, REVIEW_POINTS, REVIEW_TEXT_FIELD, taskMessages } from '@/contract/tasks';
import { useDraft } from '@/data/hooks/use-draft';
import { onFlushDrafts } from '@/data/drafts';
import type { ThreadComment } from '@/data/replica/task-overlays';
import type { TaskLogDoc } from '@/data/replica/types';
import { useOnlineStatus } from '@/data/use-online-status';
import { Files, PlainText } from '@/entries/components/attachments';
import { reviewTaskLog } from '../actions/review-task-log';
import { useLocalFormFiles } from '../hooks/use-objective-files';
import { successPath } from '../task-dates';

/** What a review being written keeps (encrypted, in the replica): its answers and its photos' details. */
export interface ReviewDraft {
  readonly answers: Answers;
  readonly files: readonly EntryFile[];
}

export const reviewDraftKey = (logId: string): string => `review:${logId}`;
const SAVE_AFTER_MS = 400;

const fileIdsOf = (answers: Answers): string[] => {
  const photos = answers[REVIEW_PHOTOS_FIELD];
  return Array.isArray(photos) ? (photos as FileAnswer[]).map((photo) => photo.file_id) : [];
};

/** Maps the action's field names (comment, files, is_review) to the review form's questions. */
function formErrorsOf(errors: Record<string, string[]>): Record<string, string[]> {
  const mapped: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const key = field === 'comment' ? REVIEW_TEXT_FIELD : field === 'files' || field.startsWith('files.') ? REVIEW_PHOTOS_FIELD : REVIEW_TEXT_FIELD;
    mapped[key] ??= messages;
  }
  return mapped;
}

/**
 * The review form (a completed objective the young person has not reviewed): the shared form
 * renderer in fill-in mode with the contract's review questions. What they write is kept as an
 * encrypted draft (it survives a reload or closing the app) until the review is queued. Offline,
 * it says plainly that the points arrive when the review is sent.
 */
function ReviewForm({ log }: { log: TaskLogDoc }) {
  const navigate = useNavigate();
  const toast = useToast();
  const online = useOnlineStatus();
  const draft = useDraft<ReviewDraft>(reviewDraftKey(log.id));
  const [initial, setInitial] = useState<ReviewDraft | null | undefined>(undefined);
  const answersRef = useRef<Answers>({});
  const filesRef = useRef<Map<string, EntryFile>>(new Map());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [saving, setSaving] = useState<'idle' | 'waiting' | 'saved'>('idle');
  /** Queued: nothing may write the draft again (it was cleared). */
  const sent = useRef(false);
  const { save } = draft;

  // The form reads its starting answers once, when the stored draft is known.
  useEffect(() => {
    if (initial !== undefined || draft.loading) return;
    const value = draft.value;
    answersRef.current = value?.answers ?? {};
    filesRef.current = new Map((value?.files ?? []).map((file) => [file.id, file]));
    setInitial(value);
  }, [draft.loading, draft.value, initial]);

  const persist = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const answers = answersRef.current;
    const ids = new Set(fileIdsOf(answers));
    return save({ answers, files: [...filesRef.current.values()].filter((file) => ids.has(file.id)) }).then((saved) => {
      if (!timer.current) setSaving(saved ? 'saved' : 'idle');
    });
  }, [save]);

  const later = useCallback(() => {
    if (sent.current) return;
    if (timer.current) clearTimeout(timer.current);
    setSaving('waiting');
    timer.current = setTimeout(persist, SAVE_AFTER_MS);
  }, [persist]);

  // Leaving the page keeps what was typed in the last moment too.
  useEffect(() => () => {
    if (timer.current) void persist();
  }, [persist]);
  // The sign-out warning counts drafts: what waits is stored first.
  useEffect(() => onFlushDrafts(async () => (timer.current ? persist() : undefined)), [persist]);

  const files = useLocalFormFiles((file) => {
    filesRef.current.set(file.id, file);
  });

  const onChange = (answers: Answers) => {
    answersRef.current = answers;
    later();
  };

  const onSubmit = async (answers: Answers) => {
    const text = answers[REVIEW_TEXT_FIELD];
    const photos = fileIdsOf(answers)
      .map((id) => filesRef.current.get(id))
      .filter((file): file is EntryFile => Boolean(file));
    const result = await reviewTaskLog(log.id, { comment: typeof text === 'string' ? text : '', photos });
    if (!result.ok) {
      const errors = formErrorsOf(result.errors);
      if (Object.keys(errors).length === 0) toast.error(result.message || taskMessages.postCommentFailed);
      return { errors };
    }
    sent.current = true;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    await draft.clear();
    navigate(successPath(log.id), { state: { queuedOffline: result.queuedOffline } });
  };

  if (initial === undefined) return <LoadingText />;
  const started = initial !== null && Object.values(initial.answers).some(isAnswered);
  return (
    <>
      <p>Tell us how you think it went. You get {REVIEW_POINTS} points for reviewing an objective.</p>
      {started ? <p className="small-print">{KEPT_DRAFT_NOTE}</p> : null}
      {online ? null : (
        <p className="objective__note" role="status">
          {taskMessages.reviewPointsOffline}
        </p>
      )}
      <FormFill
        fields={REVIEW_FORM_FIELDS}
        defaultValues={initial?.answers ?? {}}
        files={files}
        onChange={onChange}
        onSubmit={onSubmit}
        submitLabel="Send my review"
        aria-label="Your review"
        headingLevel={3}
      />
      <p className="small-print" role="status">
        {saving === 'saved' ? 'Draft saved on this device.' : saving === 'waiting' ? 'Saving your draft…' : ''}
      </p>
    </>
  );
}

/** The review of a completed objective: the form, or the review made; a current one cannot be reviewed yet. */
export function ReviewSection({ log, review }: { log: TaskLogDoc; review: ThreadComment | null }) {
  return (
    <section className="objective__section card" aria-labelledby="objective-review-title">
      <h2 id="objective-review-title" className="section-title">
        Your review
      </h2>
      {log.status !== 'completed' ? (
        <p className="objective__note">{taskMessages.reviewNotCompleted}.</p>
      ) : review && review.sync_state !== 'failed' ? (
        <>
          <PlainText value={review.comment} />
          <Files files={review.files} module="task_comment" />
          {review.sync_state === 'pending' ? (
            <p className="objective__note" role="status">
              Your review is waiting to be sent. Your {REVIEW_POINTS} points arrive when it is sent.
            </p>
          ) : (
            <p className="small-print">Thank you for reviewing this objective.</p>
          )}
        </>
      ) : log.reviewed ? (
        <p className="small-print">You have reviewed this objective.</p>
      ) : (
        <>
          {review ? (
            <p className="objective__failed" role="alert">
              Your review was not sent: {review.sync_message || taskMessages.postCommentFailed} You can send it again from the comments below.
            </p>
          ) : null}
          {review ? null : <ReviewForm log={log} />}
        </>
      )}
    </section>
  );
}
