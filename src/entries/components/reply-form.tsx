import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { KEPT_DRAFT_NOTE } from '@/components/kept-draft-note';
import { entryLimits, entryMessages } from '@/contract/entries';
import type { FieldErrors } from '@/contract/envelope';
import type { DraftFile } from '@/data/drafts';
import { useKeptDraft } from '@/data/hooks/use-kept-draft';
import type { CommentDraft, WriteResult } from '@/entries/data/types';
import { useToast } from '@/components/use-toast';
import { EmojiPicker } from './emoji-picker';
import { FileAttach } from './file-attach';
import { useKeptFiles } from './use-kept-files';

export interface ReplyEmoji {
  readonly id: string;
  readonly emoji: string;
  readonly name: string;
}

/** The words a form uses where the feature's differ from the journal's and voice's. */
export interface ReplyFormMessages {
  /** Beside the text when nothing was written. */
  readonly required: string;
  /** A refusal without a message of its own. */
  readonly failed: string;
  /** The toast when the write waits for a connection. */
  readonly offline: string;
}

const ENTRY_REPLY_MESSAGES: ReplyFormMessages = {
  required: entryMessages.commentRequired,
  failed: entryMessages.replyFailed,
  offline: entryMessages.replyOfflineRetry,
};

export interface ReplyFormProps {
  /** The form's accessible name ("Reply", "Edit your reply"). */
  readonly label: string;
  /** The reactions to choose from; without them the form has no reaction and needs words. */
  readonly emojis?: readonly ReplyEmoji[];
  /** Default: the journal's and voice's (SPEC §8 "Failed to post reply."). */
  readonly messages?: ReplyFormMessages;
  /** The label of the text box. Default "Your message". */
  readonly textLabel?: string;
  /** Existing files may be removed (an edit that can drop attachments). */
  readonly removableFiles?: boolean;
  readonly initial?: { comment?: string | null; reaction?: string | null; existingFiles?: readonly { id: string; name: string; mime: string }[] };
  readonly submitLabel: string;
  /**
   * Where the words, the reaction and the new files are kept on the device while they are written
   * (see src/entries/data/draft-keys.ts); without it nothing is kept beyond the screen.
   */
  readonly draftKey?: string | null;
  /** The toast after a successful send (not offline). */
  readonly successMessage: string;
  onSubmit(draft: CommentDraft): Promise<WriteResult>;
  onDone?(): void;
  onCancel?(): void;
}

const first = (errors: FieldErrors, field: string): string | undefined => errors[field]?.[0];

/**
 * The control a refused send gives the focus to: the first field marked invalid (the text box, the
 * reaction group's chosen radio, the file picker), whose description is its error, so a screen
 * reader reads the error as it lands there.
 */
const FIRST_INVALID = 'textarea[aria-invalid="true"], [role="radiogroup"][aria-invalid="true"] [role="radio"][tabindex="0"], input[aria-invalid="true"]';

/** What a reply's draft keeps: the words, the reaction and the new files attached (up to a cap: use-kept-files.ts). */
interface ReplyDraft {
  comment: string;
  reaction: string | null;
  /** Only when files are attached and kept. */
  files?: readonly DraftFile[];
}

/**
 * A reply (or an edit of one's own reply): text, a reaction and attachments. SPEC §5: a comment or a
 * reaction is required; errors show beside their fields. What was typed is kept on any failure.
 * Objectives use it too: no reactions (words required), their own messages, removable files on edit.
 * With `draftKey`, the words, the reaction and the files are kept on the device as they are written.
 */
export function ReplyForm({
  label,
  emojis,
  messages = ENTRY_REPLY_MESSAGES,
  textLabel = 'Your message',
  removableFiles = false,
  initial,
  submitLabel,
  draftKey = null,
  successMessage,
  onSubmit,
  onDone,
  onCancel,
}: ReplyFormProps) {
  const id = useId();
  const toast = useToast();
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [reaction, setReaction] = useState<string | null>(initial?.reaction ?? null);
  const keptFiles = useKeptFiles(draftKey);
  const { files, onChange: setFiles } = keptFiles;
  const [removed, setRemoved] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Counts refused sends with an error beside a field; each moves the focus there once it shows.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>(FIRST_INVALID)?.focus();
  }, [refusals]);
  const existing = (initial?.existingFiles ?? []).filter((file) => !removed.includes(file.id));

  const startComment = initial?.comment ?? '';
  const startReaction = initial?.reaction ?? null;
  // What was being written before (a reload, a session that expired, a connection that dropped on
  // a page that needs one) comes back once, into a form nobody has typed in yet.
  const kept = useKeptDraft<ReplyDraft>(
    draftKey,
    { comment, reaction, ...(keptFiles.kept.length > 0 ? { files: keptFiles.kept } : {}) },
    (draft) => draft.comment === startComment && draft.reaction === startReaction && !draft.files?.length,
    (draft) => {
      setComment(draft.comment);
      setReaction(draft.reaction);
      keptFiles.restore(draft.files);
    },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!comment.trim() && !reaction) {
      setErrors({ comment: [messages.required] });
      setRefusals((n) => n + 1);
      return;
    }
    setBusy(true);
    let result: WriteResult;
    try {
      result = await onSubmit({ comment: comment.trim() || null, reaction, files, ...(removed.length ? { removeFiles: removed } : {}) });
    } catch {
      result = { ok: false, message: messages.failed, errors: {} };
    }
    setBusy(false);
    if (!result.ok) {
      const fieldErrors = result.errors ?? {};
      setErrors(fieldErrors);
      const known = ['comment', 'reaction', 'files'].some((field) => first(fieldErrors, field));
      if (known) setRefusals((n) => n + 1);
      else toast.error(result.message || messages.failed);
      return;
    }
    setErrors({});
    keptFiles.settle();
    await kept.settle().catch(() => undefined);
    // A form that stays (a new reply) is emptied for the next one. One that closes after the send
    // (an edit) keeps its words until it goes: emptied, it would differ from what it opened with,
    // and an empty draft would be kept, to open the next edit of that comment with nothing in it.
    if (!onDone) {
      setComment('');
      setReaction(null);
      setFiles([]);
      setRemoved([]);
    }
    if (result.queuedOffline) toast.success(messages.offline);
    else toast.success(successMessage);
    onDone?.();
  };

  const commentError = first(errors, 'comment');
  const errorId = `${id}-comment-error`;
  return (
    <form ref={form} className="reply-form" aria-label={label} noValidate onSubmit={(event) => void submit(event)}>
      <div className={`field${commentError ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-comment`} className="field__label">
          {textLabel}
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
        {kept.restored ? <p className="small-print">{KEPT_DRAFT_NOTE}</p> : null}
      </div>
      {emojis ? <EmojiPicker label="How do you feel?" emojis={emojis} value={reaction} onChange={setReaction} error={first(errors, 'reaction')} /> : null}
      <FileAttach
        label="Add photos or files"
        files={files}
        onChange={setFiles}
        existing={existing}
        {...(removableFiles ? { onRemoveExisting: (fileId: string) => setRemoved((ids) => [...ids, fileId]) } : {})}
        max={entryLimits.maxFiles}
        error={first(errors, 'files')}
        {...(draftKey ? { keptState: keptFiles.stateOf } : {})}
      />
      <div className="actions">
        {/* aria-disabled and the guard in submit, not disabled: a disabled button drops the keyboard focus. */}
        <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
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
