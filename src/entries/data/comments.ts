/**
 * Comments and replies on journal and voice entries: the same write path as entries (validate,
 * resize, image check online, optimistic pending document, outbox multipart with files[i]; a
 * create sends the optimistic document's id). A closed conversation (the entry's locked_at set)
 * takes no new reply and no edit. SPEC §8: a refusal without a server message reads "Failed to
 * post reply.".
 */
import { entryMessages, type EntryFile } from '@/contract/entries';
import type { EntryKind } from '@/contract/entry-kind';
import { entryPaths } from '@/contract/paths';
import { enqueueWrite, newIdempotencyKey, withdrawUnsentWrite, withdrawWritesOf } from '../../data/outbox/outbox';
import { applyLocalChange, discardLocalChange } from '../../data/replica/local-writes';
import type { CommentDoc, EntryDoc } from '../../data/replica/types';
import { checkImages } from './check-images';
import { readLocalFile, storeLocalFile } from './local-files';
import { replicaForWrite } from './replica-for-write';
import type { CommentDraft, WriteResult } from './types';
import { checkSizes, validateComment } from './validate';
import { creatorOf, isOnline, prepareFiles, refused, STILL_SENDING } from './write-support';

const firstError = (errors: Record<string, string[]>) => Object.values(errors)[0]?.[0] ?? entryMessages.replyFailed;

interface CommentTarget {
  readonly entryType: EntryKind;
  /** Create: the entry commented on. */
  readonly entryId?: string;
  /** Update: the comment. */
  readonly commentId?: string;
}

async function writeComment(target: CommentTarget, draft: CommentDraft, now: Date): Promise<WriteResult> {
  const open = await replicaForWrite();
  if (!open) return refused(entryMessages.replyFailed);

  const existing = target.commentId
    ? ((await open.db.comments.findOne(target.commentId).exec())?.toJSON() as CommentDoc | undefined)
    : undefined;
  if (target.commentId && !existing) return refused(entryMessages.replyFailed);
  const entryId = existing?.entry_id ?? target.entryId ?? '';
  const entry = (await open.db[target.entryType].findOne(entryId).exec())?.toJSON() as EntryDoc | undefined;
  // The server does not know this entry yet: a reply would point at nothing.
  if (entry?.local_only) return refused(STILL_SENDING);
  // Staff closed the conversation: the server would refuse a reply or an edit (422).
  if (entry?.locked_at) return refused(entryMessages.locked);

  const errors = await validateComment(draft);
  if (Object.keys(errors).length) return refused(firstError(errors), errors);
  const files = await prepareFiles(draft.files ?? []);
  const sizeErrors = checkSizes(files, null);
  if (Object.keys(sizeErrors).length) return refused(firstError(sizeErrors), sizeErrors);
  const check = await checkImages(open.identity.residentId, files);
  if (check.outcome === 'refused') return refused(entryMessages.imageInappropriate, { files: [entryMessages.imageInappropriate] });

  // A synced comment is on the server, even while its create's answer is still being applied.
  const createsAgain = Boolean(existing?.local_only) && existing?.sync_state !== 'synced';
  let withdrew = false;
  if (existing && createsAgain && existing.sync_outbox_id) {
    if (!(await withdrawUnsentWrite(existing.sync_outbox_id))) return refused(STILL_SENDING);
    withdrew = true;
  } else if (existing && existing.sync_state !== 'synced') {
    // The refused change (and anything behind it) is replaced by this one: it leaves the queue, so
    // the new one is not stuck behind it and nothing counts it twice. Pending too, as for entries
    // (save-entry.ts): a refusal whose outcome is not applied yet must not hold this one back.
    withdrew = await withdrawWritesOf({ collection: 'comments', id: existing.id });
  }
  // Photos written on this device go with the write that carries them; when that write was taken
  // back (or none waits), this one carries them (their bytes are kept encrypted here).
  const carried: File[] = [];
  if (withdrew || (existing && existing.sync_state !== 'pending')) {
    for (const file of existing?.files ?? []) {
      const local = await readLocalFile(open.db, file);
      if (local) carried.push(local);
    }
  }

  const newFiles: EntryFile[] = [];
  for (const file of files) newFiles.push(await storeLocalFile(open.db, file, file.name));
  const outboxId = newIdempotencyKey();
  const id = existing?.id ?? outboxId;
  const at = now.toISOString();
  const comment = draft.comment?.trim() || null;
  const reaction = draft.reaction?.trim() || null;
  await applyLocalChange(
    'comments',
    id,
    {
      updated_at: existing?.updated_at ?? at,
      entry_type: target.entryType,
      entry_id: entryId,
      created_at: existing?.created_at ?? at,
      local_only: existing ? createsAgain : true,
      comment,
      reaction,
      creator: existing?.creator ?? (await creatorOf(open)),
      files: [...(existing?.files ?? []), ...newFiles],
    },
    { state: 'pending', message: null, outbox_id: outboxId },
  );

  const update = Boolean(existing) && !createsAgain;
  try {
    await enqueueWrite({
      method: 'POST',
      path: update ? entryPaths[target.entryType].comment.build(id) : entryPaths[target.entryType].comments.build(),
      ...(update ? { methodOverride: 'PUT' as const } : {}),
      // Create only: the server keeps the id (src/contract/comments.ts).
      fields: { ...(update ? {} : { id }), entry_id: entryId, comment, reaction },
      files: [...carried, ...files],
      idempotencyKey: outboxId,
      local: { collection: 'comments', id },
      label: 'Reply',
      topics: [target.entryType, 'feedback'],
      failureMessage: entryMessages.replyFailed,
    });
  } catch {
    await applyLocalChange('comments', id, {}, { state: 'failed', message: entryMessages.replyFailed, outbox_id: null }).catch(() => undefined);
    return refused(entryMessages.replyFailed);
  }
  return { ok: true, id, queuedOffline: check.outcome === 'offline' || !isOnline() };
}

/** POST .../entries/comments (entry_id, comment, reaction, files[i]). */
export function postComment(entryType: EntryKind, entryId: string, draft: CommentDraft, now: Date = new Date()): Promise<WriteResult> {
  return writeComment({ entryType, entryId }, draft, now);
}

/** POST .../entries/comments/{id}?_method=PUT. */
export function updateComment(entryType: EntryKind, commentId: string, draft: CommentDraft, now: Date = new Date()): Promise<WriteResult> {
  return writeComment({ entryType, commentId }, draft, now);
}

/** What Discard cannot do for a reply without a connection or a copy: say so plainly. */
export const NO_EARLIER_REPLY = 'Hearth has no earlier copy of this reply on this device yet. Please try again when you are online.';

/**
 * Takes back a reply the server refused for good (issue 12, as entries have it): its write (and
 * anything queued behind it) leaves the outbox, so the logout warning no longer counts it; a reply
 * the server never had goes, an edit gives way to the server's copy from before it. The screen asks
 * first and offers to copy the words.
 */
export async function discardFailedComment(commentId: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const open = await replicaForWrite();
  const doc = (await open?.db.comments.findOne(commentId).exec())?.toJSON() as CommentDoc | undefined;
  if (doc?.sync_state !== 'failed') return { ok: true };
  await withdrawWritesOf({ collection: 'comments', id: commentId });
  return (await discardLocalChange('comments', commentId)) ? { ok: true } : { ok: false, message: NO_EARLIER_REPLY };
}
