/**
 * The young person's comments and reviews on an objective: the entries' write path (validate,
 * resize, the device's image check online, an optimistic document, the outbox) with the objective's
 * rules and SPEC §8 texts.
 *
 * Each write is an overlay document in `tasks` (kind `comment`, its id the comment's id: a create
 * sends it as `id` and as the Idempotency-Key) that is pending until delivered, failed with the
 * message (and its text kept) when refused, and synced with the server's copy once delivered
 * (settle-task-comment.ts, through the composition root). What the thread shows is in
 * src/data/replica/task-overlays.ts.
 *
 * The request is made from the overlay as it should end up: a create sends its text and all its
 * files; an update sends the text, the server files it no longer lists (`remove_files[]`) and the
 * files written on this device. So a failed write can be sent again (a new key, the same id), its
 * photos read back from the encrypted local file store.
 */
import { entryLimits, entryMessages, type EntryFile } from '@/contract/entries';
import type { FieldErrors } from '@/contract/envelope';
import { paths } from '@/contract/paths';
import { taskCommentCreateSchema, taskCommentUpdateSchema, taskMessages, type TaskComment } from '@/contract/tasks';
import { enqueueWrite, newIdempotencyKey, withdrawUnsentWrite } from '@/data/outbox/outbox';
import { applyLocalChange } from '@/data/replica/local-writes';
import type { OpenReplica } from '@/data/replica/replica-store';
import type { TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';
import { checkImages } from '@/entries/data/check-images';
import { readLocalFile, storeLocalFile } from '@/entries/data/local-files';
import { replicaForWrite } from '@/entries/data/replica-for-write';
import type { WriteResult } from '@/entries/data/types';
import { checkSizes, isAllowedFile } from '@/entries/data/validate';
import { creatorOf, isOnline, prepareFiles, refused } from '@/entries/data/write-support';

export interface TaskCommentDraft {
  /** The text (required, up to TASK_COMMENT_MAX_LENGTH). */
  readonly comment: string;
  /** New files chosen now (images are resized on the device). */
  readonly files?: readonly File[];
  /** Files already kept encrypted on this device (a review's photos, stored as they were added). */
  readonly storedFiles?: readonly EntryFile[];
  /** Update: ids of the comment's files to drop. */
  readonly removeFiles?: readonly string[];
}

type Target =
  | { readonly kind: 'create'; readonly logId: string; readonly isReview: boolean }
  | { readonly kind: 'update'; readonly logId: string; readonly commentId: string }
  /** Send a failed (or unsent) write again, as it is. */
  | { readonly kind: 'retry'; readonly logId: string; readonly commentId: string };

const first = (errors: FieldErrors): string | undefined => Object.values(errors)[0]?.[0];

function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'comment');
    errors[field] ??= [issue.message];
  }
  return errors;
}

async function logOf(open: OpenReplica, logId: string): Promise<TaskLogDoc | null> {
  const doc = await open.db.tasks.findOne(logId).exec();
  const plain = doc?.toJSON() as unknown as TaskLogDoc | undefined;
  return plain?.kind === 'log' ? plain : null;
}

async function overlayOf(open: OpenReplica, id: string): Promise<TaskCommentOverlayDoc | null> {
  const doc = await open.db.tasks.findOne(id).exec();
  const plain = doc?.toJSON() as unknown as TaskCommentOverlayDoc | undefined;
  return plain?.kind === 'comment' ? plain : null;
}

async function reviewOverlays(open: OpenReplica, logId: string): Promise<TaskCommentOverlayDoc[]> {
  const docs = await open.db.tasks.find({ selector: { kind: 'comment', task_log_id: logId } }).exec();
  return docs.map((doc) => doc.toJSON() as unknown as TaskCommentOverlayDoc).filter((doc) => doc.is_review);
}

/** Files: allowed types (name and bytes), at most entryLimits.maxFiles in all. */
async function checkFiles(files: readonly File[], total: number): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (total > entryLimits.maxFiles) errors.files = [entryMessages.tooManyFiles];
  for (const file of files) {
    if (!(await isAllowedFile(file))) errors.files ??= [entryMessages.fileTypeNotAllowed];
  }
  return errors;
}

/** Bytes of the overlay's files written on this device (in its order), for the request. */
async function localFilesOf(open: OpenReplica, files: readonly EntryFile[]): Promise<File[]> {
  const found: File[] = [];
  for (const file of files) {
    const local = await readLocalFile(open.db, file);
    if (local) found.push(local);
  }
  return found;
}

/** Queues the request that makes the server's comment what `overlay` says. */
async function queue(open: OpenReplica, overlay: TaskCommentOverlayDoc, server: Omit<TaskComment, 'deleted_at'> | null, outboxId: string, failure: string): Promise<void> {
  const files = await localFilesOf(open, overlay.files);
  const create = overlay.local_only;
  const kept = new Set(overlay.files.map((file) => file.id));
  const removeFiles = create ? [] : (server?.files ?? []).filter((file) => !kept.has(file.id)).map((file) => file.id);
  await enqueueWrite({
    method: 'POST',
    path: create ? paths.taskLogComments.build() : paths.taskLogComment.build(overlay.id),
    ...(create ? {} : { methodOverride: 'PUT' as const }),
    fields: create
      ? { id: overlay.id, task_log_id: overlay.task_log_id, comment: overlay.comment, ...(overlay.is_review ? { is_review: '1' } : {}) }
      : { comment: overlay.comment, ...(removeFiles.length ? { remove_files: removeFiles } : {}) },
    // SPEC §3 and §7: a task comment's files go as `files[]` (entries' go as an indexed list).
    fileFields: files.map((file) => ({ name: 'files[]', file })),
    idempotencyKey: outboxId,
    local: { collection: 'tasks', id: overlay.id },
    label: overlay.is_review ? 'Review' : 'Comment',
    topics: ['tasks', 'points'],
    failureMessage: failure,
  });
}

/** The outbox write still waiting for this overlay is taken back (false: it may be on its way). */
async function takeBack(overlay: TaskCommentOverlayDoc | null): Promise<boolean> {
  if (!overlay || overlay.sync_state === 'synced' || !overlay.sync_outbox_id) return true;
  return withdrawUnsentWrite(overlay.sync_outbox_id);
}

export async function writeTaskComment(target: Target, draft: TaskCommentDraft | null, now: Date = new Date()): Promise<WriteResult> {
  const failure = target.kind === 'create' ? taskMessages.postCommentFailed : taskMessages.updateCommentFailed;
  const open = await replicaForWrite();
  if (!open) return refused(failure);
  const me = open.identity.userId;

  const log = await logOf(open, target.logId);
  if (!log) return refused(taskMessages.objectiveNotFound);

  // The comment as it is now: this device's overlay, else the server's copy in the log.
  const commentId = target.kind === 'create' ? null : target.commentId;
  const overlay = commentId ? await overlayOf(open, commentId) : null;
  const server = commentId ? (log.comments.find((c) => c.id === commentId) ?? null) : null;
  if (commentId) {
    const base = overlay ?? server;
    if (!base || base.task_log_id !== log.id || base.creator.id !== me) return refused(taskMessages.commentNotFound);
  }

  if (target.kind === 'create' && target.isReview) {
    if (log.status !== 'completed') return refused(taskMessages.reviewNotCompleted, { is_review: [taskMessages.reviewNotCompleted] });
    const mine = await reviewOverlays(open, log.id);
    if (log.reviewed || mine.some((review) => review.sync_state !== 'failed')) return refused(taskMessages.reviewTwice, { is_review: [taskMessages.reviewTwice] });
  }

  // What the comment should become.
  let next: TaskCommentOverlayDoc;
  let newFiles: File[] = [];
  if (target.kind === 'retry') {
    if (!overlay) return refused(taskMessages.commentNotFound);
    next = overlay;
  } else {
    const base = overlay ?? server;
    const text = draft?.comment ?? '';
    const checked =
      target.kind === 'create'
        ? taskCommentCreateSchema.safeParse({ task_log_id: log.id, comment: text, is_review: target.isReview })
        : taskCommentUpdateSchema.safeParse({ comment: text });
    if (!checked.success) {
      const errors = fieldErrorsOf(checked.error.issues);
      return refused(first(errors) ?? failure, errors);
    }
    const comment = text.trim();
    if (!comment) return refused(taskMessages.commentRequired, { comment: [taskMessages.commentRequired] });

    const removed = new Set(draft?.removeFiles ?? []);
    const keptFiles = (base?.files ?? []).filter((file) => !removed.has(file.id));
    const stored = draft?.storedFiles ?? [];
    const chosen = draft?.files ?? [];
    const storedBlobs = await localFilesOf(open, stored);
    if (storedBlobs.length < stored.length) return refused(failure, { files: ['A photo is no longer on this device. Please add it again.'] });
    const typeErrors = await checkFiles([...chosen, ...storedBlobs], keptFiles.length + stored.length + chosen.length);
    if (Object.keys(typeErrors).length) return refused(first(typeErrors) ?? failure, typeErrors);
    newFiles = await prepareFiles(chosen);
    const sizeErrors = checkSizes([...newFiles, ...storedBlobs], null);
    if (Object.keys(sizeErrors).length) return refused(first(sizeErrors) ?? failure, sizeErrors);
    const check = await checkImages(open.identity.residentId, [...newFiles, ...storedBlobs]);
    if (check.outcome === 'refused') return refused(entryMessages.imageInappropriate, { files: [entryMessages.imageInappropriate] });

    const at = now.toISOString();
    next = base
      ? {
          ...(overlay ?? {
            ...base,
            kind: 'comment' as const,
            status: '' as const,
            sort_key: base.created_at,
            local_only: false,
            sync_state: 'synced' as const,
            sync_message: null,
            sync_outbox_id: null,
          }),
          comment,
          edited_at: overlay?.local_only ? null : at,
          files: keptFiles,
        }
      : {
          id: '',
          kind: 'comment',
          status: '',
          task_log_id: log.id,
          sort_key: at,
          local_only: true,
          updated_at: at,
          created_at: at,
          edited_at: null,
          comment,
          is_review: target.kind === 'create' && target.isReview,
          creator: (await creatorOf(open)) as TaskComment['creator'],
          files: [],
          sync_state: 'pending',
          sync_message: null,
          sync_outbox_id: null,
        };
    next = { ...next, files: [...next.files, ...stored] };
  }

  // Only one write per comment on its way: an earlier one not sent yet is taken back (it is
  // replaced by this one, made from the whole comment); one that may be on its way must finish first.
  if (!(await takeBack(overlay))) return refused(taskMessages.commentStillSending);

  const outboxId = newIdempotencyKey();
  const id = overlay?.id ?? commentId ?? outboxId;
  for (const file of newFiles) next.files.push(await storeLocalFile(open.db, file, file.name));
  next = { ...next, id };
  const { sync_state: _s, sync_message: _m, sync_outbox_id: _o, sync_server: _p, ...fields } = next;
  await applyLocalChange('tasks', id, fields, { state: 'pending', message: null, outbox_id: outboxId });

  try {
    await queue(open, next, server, outboxId, failure);
  } catch {
    await applyLocalChange('tasks', id, {}, { state: 'failed', message: failure, outbox_id: null }).catch(() => undefined);
    return refused(failure);
  }
  return { ok: true, id, queuedOffline: !isOnline() };
}
