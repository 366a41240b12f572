/**
 * SPEC §5 rules for journal and voice entries and their comments, checked on the device before
 * anything is queued, with the contract's texts (src/contract/entries.ts entryMessages). Files are
 * checked by name and by their first bytes (a photo renamed `.pdf` is refused).
 */
import type { EntryKind } from '@/contract/entry-kind';
import type { FieldErrors } from '@/contract/envelope';
import { entryLimits, entryMessages } from '@/contract/entries';
import { allowedBlobType, sniffBlob } from '@/contract/file-type';
import { COMMENT_MAX_LENGTH } from '@/contract/comments';
import type { CommentDraft, EntryDraft } from './types';

const add = (errors: FieldErrors, field: string, message: string) => {
  if (!errors[field]) errors[field] = [message];
};

const hasText = (value: string | null | undefined): boolean => typeof value === 'string' && value.trim().length > 0;

/** True when the file's name and content both say it is one allowed type (the same one). */
export async function isAllowedFile(file: Blob & { name?: string }): Promise<boolean> {
  return (await allowedBlobType(file)) !== null;
}

/** yyyy-MM-ddTHH:mm of `now` in the device's zone. */
export function localStamp(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

export interface ExistingParts {
  /** Attachments the entry already has (update). */
  readonly fileIds: readonly string[];
  readonly hasCanvas: boolean;
}

/**
 * Field errors of an entry draft (empty when valid): `description` (nothing to save, too long),
 * `entry_date` (future), `category_id`, `files` (count, type), `canvas` (type).
 * Sizes are checked after resizing (checkSizes).
 */
export async function validateEntry(
  type: EntryKind,
  draft: EntryDraft,
  existing: ExistingParts = { fileIds: [], hasCanvas: false },
  now: Date = new Date(),
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const keepsCanvas = existing.hasCanvas && !draft.removeCanvas;
  if (!hasText(draft.description) && !draft.canvas && !keepsCanvas && !hasText(draft.reaction)) {
    add(errors, 'description', entryMessages.nothingToSave);
  }
  if ((draft.description ?? '').length > entryLimits.descriptionMaxLength) add(errors, 'description', entryMessages.descriptionTooLong);

  if (type === 'journal' && (draft.entryDate || draft.entryTime)) {
    const stamp = `${draft.entryDate ?? localStamp(now).slice(0, 10)}T${draft.entryTime ?? '00:00'}`;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(stamp)) add(errors, 'entry_date', entryMessages.dateInFuture);
    else if (stamp > localStamp(now)) add(errors, 'entry_date', entryMessages.dateInFuture);
  }
  if (type === 'voice' && !draft.categoryId) add(errors, 'category_id', entryMessages.categoryRequired);

  const files = draft.files ?? [];
  const removed = new Set(draft.removeFiles ?? []);
  const kept = existing.fileIds.filter((id) => !removed.has(id)).length;
  if (kept + files.length > entryLimits.maxFiles) add(errors, 'files', entryMessages.tooManyFiles);
  for (const file of files) {
    if (!(await isAllowedFile(file))) add(errors, 'files', entryMessages.fileTypeNotAllowed);
  }
  if (draft.canvas) {
    if ((await sniffBlob(draft.canvas)) !== 'image/png') add(errors, 'canvas', entryMessages.fileTypeNotAllowed);
  }
  return errors;
}

/** After resizing: each attachment and the drawing within their size limits. */
export function checkSizes(files: readonly Blob[], canvas: Blob | null | undefined): FieldErrors {
  const errors: FieldErrors = {};
  if (files.some((file) => file.size > entryLimits.maxFileBytes)) add(errors, 'files', entryMessages.fileTooLarge);
  if (canvas && canvas.size > entryLimits.canvasMaxBytes) add(errors, 'canvas', entryMessages.fileTooLarge);
  return errors;
}

/** SPEC §5 comments: a comment or a reaction (at least one), not too long; files as for entries. */
export async function validateComment(draft: CommentDraft): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!hasText(draft.comment) && !hasText(draft.reaction)) add(errors, 'comment', entryMessages.commentRequired);
  if ((draft.comment ?? '').length > COMMENT_MAX_LENGTH) add(errors, 'comment', entryMessages.descriptionTooLong);
  const files = draft.files ?? [];
  if (files.length > entryLimits.maxFiles) add(errors, 'files', entryMessages.tooManyFiles);
  for (const file of files) {
    if (!(await isAllowedFile(file))) add(errors, 'files', entryMessages.fileTypeNotAllowed);
  }
  return errors;
}
