import type { EntryKind } from '@/contract/entry-kind';
import { useEffect, useRef, useState } from 'react';
import { entryMessages } from '@/contract/entries';
import type { CommentDraft, WriteResult } from '@/entries/data/types';
import { useUserPhoto, type Live } from '@/data/hooks';
import { useKeptDraftKeys } from '@/data/hooks/use-draft';
import type { CommentDoc, EntryDoc } from '@/data/replica/types';
import { useAccount } from '@/data/session-store';
import { Avatar } from '@/components/avatar';
import { LoadingText } from '@/components/loading-text';
import { RelativeTime } from '@/components/relative-time';
import { discardFailedComment } from '../data/comments';
import { Attachment, Files, PlainText as Text } from './attachments';
import { useUnsentCommentActions } from './use-unsent-comment-actions';
import { DiscardDialog, unsentDiscardText } from './discard-dialog';
import { ReplyForm, type ReplyEmoji } from './reply-form';
import { useLockedWhenOpened } from './use-locked-when-opened';
import './comment-thread.css';
import { commentEditDraftKey, replyDraftKey } from '../data/draft-keys';

export interface CommentThreadProps {
  readonly entryType: EntryKind;
  readonly entry: EntryDoc;
  /** The entry's comments (read by the page, which also waits on them). */
  readonly comments: Live<CommentDoc[]>;
  /** The site's emojis (read by the page, which waits for them before the reply form shows). */
  readonly emojis: readonly ReplyEmoji[];
  /** False while the comments are still coming: the reply form then shows with them, not before. */
  readonly showReply: boolean;
  /** The feature's actions (components cannot import features). */
  post(entryId: string, draft: CommentDraft): Promise<WriteResult>;
  update(commentId: string, draft: CommentDraft): Promise<WriteResult>;
}

/** A reaction as its emoji with the emoji's name for screen readers. */
function Reaction({ value, emojis }: { value: string | null; emojis: readonly ReplyEmoji[] }) {
  if (!value) return null;
  const match = emojis.find((e) => e.id === value || e.emoji === value);
  const text = match?.emoji ?? value;
  return (
    <p className="thread__reaction">
      <span role="img" aria-label={`Reaction: ${match?.name ?? text}`}>
        {text}
      </span>
    </p>
  );
}

function CommentItem({
  comment,
  mine,
  locked,
  keptEdit,
  emojis,
  update,
  onDiscarded,
}: {
  comment: CommentDoc;
  mine: boolean;
  /** The conversation is closed: one's own replies can no longer be edited or sent again. */
  locked: boolean;
  /** A draft of an edit of this comment is on the device (null: not known yet). */
  keptEdit: boolean | null;
  emojis: readonly ReplyEmoji[];
  update: CommentThreadProps['update'];
  /** The reply was discarded: it leaves the thread (with the button that had the focus). */
  onDiscarded: () => void;
}) {
  const photo = useUserPhoto(comment.creator.has_photo ? comment.creator.id : null);
  // An edit already open when the conversation closes stays open, so its words are not lost.
  const [editing, setEditing] = useState(false);
  // An edit being written before (a reload, a session that expired) opens again by itself, once, so
  // the person finds their words without knowing to press Edit; the form says they were kept.
  const [keptChecked, setKeptChecked] = useState(false);
  if (!keptChecked && keptEdit !== null) {
    setKeptChecked(true);
    if (keptEdit && mine) setEditing(true);
  }
  const changeable = mine && !locked;
  const name = mine ? 'You' : `${comment.creator.first_name} ${comment.creator.last_name}`.trim() || 'Staff';

  const unsent = useUnsentCommentActions({
    retry: () =>
      update(comment.id, { comment: comment.comment, reaction: comment.reaction }).then(
        (result) => (result.ok ? result : { ok: false as const, message: result.message || entryMessages.replyFailed }),
        () => ({ ok: false as const, message: entryMessages.replyFailed }),
      ),
    discard: () => discardFailedComment(comment.id).catch(() => ({ ok: false as const, message: entryMessages.replyFailed })),
    discarded: 'The reply was discarded',
    onDiscarded,
  });
  const { article, discardButton } = unsent;
  const editButton = useRef<HTMLButtonElement>(null);
  // An edit closed: where the focus goes once its form (and the button that had the focus) is gone.
  const afterEdit = useRef<'edit' | 'comment' | null>(null);
  useEffect(() => {
    if (editing || !afterEdit.current) return;
    (afterEdit.current === 'edit' ? (editButton.current ?? article.current) : article.current)?.focus();
    afterEdit.current = null;
  }, [editing, article]);
  const closeEdit = (focus: 'edit' | 'comment') => {
    afterEdit.current = focus;
    setEditing(false);
  };

  return (
    <li className={`thread__comment${mine ? ' thread__comment--mine' : ''}`}>
      <article ref={article} tabIndex={-1} aria-label={`Comment from ${name}`}>
        <header className="thread__meta">
          <Avatar src={photo} firstName={comment.creator.first_name} lastName={comment.creator.last_name} size={40} />
          <span className="thread__name">{name}</span>
          <RelativeTime iso={comment.created_at} className="thread__time" />
        </header>
        {editing ? (
          <ReplyForm
            label="Edit your reply"
            emojis={emojis}
            draftKey={commentEditDraftKey(comment.id)}
            initial={{ comment: comment.comment, reaction: comment.reaction, existingFiles: comment.files }}
            submitLabel="Save"
            successMessage="Your reply has been updated."
            onSubmit={(draft) => update(comment.id, draft)}
            onDone={() => closeEdit('comment')}
            onCancel={() => closeEdit('edit')}
          />
        ) : (
          <>
            <Text value={comment.comment} />
            <Reaction value={comment.reaction} emojis={emojis} />
            <Files files={comment.files} module="comment" />
          </>
        )}
        {mine && !editing && comment.sync_state === 'pending' ? (
          <p className="thread__state" role="status">
            Waiting to send
          </p>
        ) : null}
        {mine && !editing && comment.sync_state === 'failed' ? (
          <div className="thread__failed">
            <p className="field__error" role="alert">
              {comment.sync_message || entryMessages.replyFailed}
            </p>
            {/* A closed conversation takes no reply: what is left is to copy the words and let it go. */}
            <div className="actions">
              {locked ? null : (
                <>
                  {/* aria-disabled and a guard, not disabled: a disabled button drops the keyboard focus. */}
                  <button type="button" className="button button--primary" aria-disabled={unsent.busy || undefined} onClick={() => void unsent.retry()}>
                    Try again
                  </button>
                  <button ref={editButton} type="button" className="button button--secondary" onClick={() => setEditing(true)}>
                    Edit
                  </button>
                </>
              )}
              <button ref={discardButton} type="button" className="button button--ghost" aria-disabled={unsent.busy || undefined} onClick={unsent.ask}>
                Discard<span className="visually-hidden"> this reply</span>
              </button>
            </div>
            {unsent.confirming ? (
              <DiscardDialog
                text={unsentDiscardText('Discard this reply?')}
                words={comment.comment ?? ''}
                busy={unsent.busy}
                onDiscard={() => void unsent.discard()}
                onKeep={unsent.keep}
              />
            ) : null}
          </div>
        ) : null}
        {changeable && !editing && comment.sync_state !== 'failed' ? (
          <button ref={editButton} type="button" className="button button--ghost thread__edit" onClick={() => setEditing(true)}>
            Edit<span className="visually-hidden"> your reply</span>
          </button>
        ) : null}
      </article>
    </li>
  );
}

/**
 * An entry and its conversation: the entry at the top, comments oldest first, then a reply form.
 * Shared by the journal and voice comment screens; the writes come in as props. Once staff close
 * the conversation (the entry's locked_at), the comments stay and a short note replaces the reply
 * form and the edit controls (the server would refuse both); a form already being written when the
 * lock arrives stays, so nothing typed is lost, and sending it then says why it cannot go.
 */
export function CommentThread({ entryType, entry, comments, emojis, showReply, post, update }: CommentThreadProps) {
  const account = useAccount();
  const me = account?.user.id ?? null;
  const locked = Boolean(entry.locked_at);
  // A reply being written when the conversation closes keeps its form (and words) under the note.
  const lockedWhenOpened = useLockedWhenOpened(entry);
  const keptEdits = useKeptDraftKeys(comments.data.filter((comment) => comment.creator.id === me).map((comment) => commentEditDraftKey(comment.id)));
  const commentsTitle = useRef<HTMLHeadingElement>(null);

  return (
    <div className="thread">
      <section className="card thread__entry" aria-labelledby="thread-entry-title">
        <h2 id="thread-entry-title" className="section-title">
          What you wrote
        </h2>
        <p className="thread__meta">
          <RelativeTime iso={entry.created_at} className="thread__time" />
        </p>
        <Text value={entry.description} />
        <Reaction value={entry.reaction} emojis={emojis} />
        {entry.canvas ? (
          <div className="attachments">
            <Attachment file={entry.canvas} module={entryType} alt="Your drawing" />
          </div>
        ) : null}
        <Files files={entry.files} module={entryType} />
      </section>

      <section className="section" aria-labelledby="thread-comments-title">
        <h2 id="thread-comments-title" className="section-title" tabIndex={-1} ref={commentsTitle}>
          Comments
        </h2>
        {comments.loading && comments.data.length === 0 ? <LoadingText /> : null}
        {!comments.loading && comments.data.length === 0 ? <p className="small-print">No comments yet. Staff replies will show here.</p> : null}
        {comments.data.length > 0 ? (
          <ol className="thread__list">
            {comments.data.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                mine={comment.creator.id === me}
                locked={locked}
                keptEdit={keptEdits.loading ? null : keptEdits.keys.includes(commentEditDraftKey(comment.id))}
                emojis={emojis}
                update={update}
                // The reply leaves the thread (or goes back to the server's copy, without Discard).
                onDiscarded={() => commentsTitle.current?.focus()}
              />
            ))}
          </ol>
        ) : null}
      </section>

      {showReply ? (
        <section className="section" aria-labelledby="thread-reply-title">
          <h2 id="thread-reply-title" className="section-title">
            Reply
          </h2>
          {locked ? (
            <p className="thread__locked" role="note">
              {entryMessages.locked}
            </p>
          ) : null}
          {lockedWhenOpened ? null : entry.local_only ? (
            <p className="small-print">You can reply once your entry has been sent.</p>
          ) : (
            <ReplyForm
              label="Reply"
              emojis={emojis}
              draftKey={replyDraftKey(entryType, entry.id)}
              submitLabel="Send reply"
              successMessage="Your reply has been sent."
              onSubmit={(draft) => post(entry.id, draft)}
            />
          )}
        </section>
      ) : null}
    </div>
  );
}
