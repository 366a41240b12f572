import { useId, useState, type FormEvent } from 'react';
import { entryLimits, entryMessages } from '@/contract/entries';
import type { FieldErrors } from '@/contract/envelope';
import type { CommentDraft, WriteResult } from '@/entries/data/types';
import { useToast } from '@/components/use-toast';
import { EmojiPicker } from './emoji-picker';
import { FileAttach } from './file-attach';

export interface ReplyEmoji {
  readonly id: string;
  readonly emoji: string;
  readonly name: string;
}

export interface ReplyFormProps {
  /** The form's accessible name ("Reply", "Edit your reply"). */
  readonly label: string;
  readonly emojis: readonly ReplyEmoji[];
  readonly initial?: { comment?: string | null; reaction?: string | null; existingFiles?: readonly { id: string; name: string; mime: string }[] };
  readonly submitLabel: string;
  /** The toast after a successful send (not offline). */
  readonly successMessage: string;
  onSubmit(draft: CommentDraft): Promise<WriteResult>;
  onDone?(): void;
  onCancel?(): void;
}

const first = (errors: FieldErrors, field: string): string | undefined => errors[field]?.[0];

/**
 * A reply (or an edit of one's own reply): text, a reaction and attachments. SPEC §5: a comment or a
 * reaction is required; errors show beside their fields. What was typed is kept on any failure.
 */
export function ReplyForm({ label, emojis, initial, submitLabel, successMessage, onSubmit, onDone, onCancel }: ReplyFormProps) {
  const id = useId();
  const toast = useToast();
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [reaction, setReaction] = useState<string | null>(initial?.reaction ?? null);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const existing = initial?.existingFiles ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!comment.trim() && !reaction) {
      setErrors({ comment: [entryMessages.commentRequired] });
      return;
    }
    setBusy(true);
    let result: WriteResult;
    try {
      result = await onSubmit({ comment: comment.trim() || null, reaction, files });
    } catch {
      result = { ok: false, message: entryMessages.replyFailed, errors: {} };
    }
    setBusy(false);
    if (!result.ok) {
      const fieldErrors = result.errors ?? {};
      setErrors(fieldErrors);
      const known = ['comment', 'reaction', 'files'].some((field) => first(fieldErrors, field));
      if (!known) toast.error(result.message || entryMessages.replyFailed);
      return;
    }
    setErrors({});
    setComment('');
    setReaction(null);
    setFiles([]);
    if (result.queuedOffline) toast.success(entryMessages.offlineRetry);
    else toast.success(successMessage);
    onDone?.();
  };

  const commentError = first(errors, 'comment');
  const errorId = `${id}-comment-error`;
  return (
    <form className="reply-form" aria-label={label} noValidate onSubmit={(event) => void submit(event)}>
      <div className={`field${commentError ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-comment`} className="field__label">
          Your message
        </label>
        <textarea
          id={`${id}-comment`}
          className="field__input reply-form__text"
          rows={3}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          aria-invalid={commentError ? true : undefined}
          aria-describedby={commentError ? errorId : undefined}
        />
        {commentError ? (
          <p id={errorId} className="field__error">
            {commentError}
          </p>
        ) : null}
      </div>
      <EmojiPicker label="How do you feel?" emojis={emojis} value={reaction} onChange={setReaction} error={first(errors, 'reaction')} />
      <FileAttach
        label="Add photos or files"
        files={files}
        onChange={setFiles}
        existing={existing}
        max={Math.max(0, entryLimits.maxFiles - existing.length)}
        error={first(errors, 'files')}
      />
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy} aria-disabled={busy}>
          {busy ? 'Sending…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
