import { messages } from './messages';
import { groupDigits } from './group-digits';

/*
 * The entries' limits and messages without zod (./entries.ts re-exports them with the schemas), so
 * a screen that only shows an entry's state need not load the contract's checks (issue 13, route budgets).
 */

export const entryLimits = {
  descriptionMaxLength: 5000,
  maxFiles: 5,
  maxFileBytes: 10 * 1024 * 1024,
  /** Images are resized on the device so the longest side is at most this many pixels. */
  imageMaxDimension: 1600,
  canvasMaxBytes: 2 * 1024 * 1024,
  /**
   * What a draft on the device keeps of its attached files, in all (photos counted as they would be
   * sent, made smaller): one attachment's worth, so a few drafts cannot fill a cheap phone.
   */
  draftFilesMaxBytes: 10 * 1024 * 1024,
} as const;

/** Types accepted for attachments, checked by content (magic bytes) on the server as well as by name. */
export const ALLOWED_FILE_TYPES = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'image/gif': ['.gif'],
  'application/pdf': ['.pdf'],
} as const;
export type AllowedMime = keyof typeof ALLOWED_FILE_TYPES;
export const isAllowedMime = (mime: string): mime is AllowedMime => Object.hasOwn(ALLOWED_FILE_TYPES, mime);

export const entryMessages = {
  nothingToSave: 'Write something, draw something or choose a reaction',
  descriptionTooLong: `Your entry is too long: it can be up to ${groupDigits(entryLimits.descriptionMaxLength)} characters`,
  dateInFuture: 'The date and time cannot be in the future',
  tooManyFiles: `You can add up to ${entryLimits.maxFiles} files`,
  fileTooLarge: `Each file can be up to ${entryLimits.maxFileBytes / 1024 / 1024} MB`,
  fileTypeNotAllowed: messages.fileTypeNotAllowed,
  imageInappropriate: messages.imageInappropriate,
  categoryRequired: 'Please choose what this is about',
  postFailed: 'There was an error posting your entry',
  updateFailed: 'There was an error updating your entry',
  replyFailed: 'Failed to post reply.',
  offlineRetry: 'You are offline, we will retry posting your entry when back online.',
  /** SPEC §8's journal offline message ("posting ...") for a reply: it is not an entry. */
  replyOfflineRetry: 'You are offline, we will retry posting your reply when back online.',
  commentRequired: 'Comment is required',
  reactionRequired: 'Reaction is required',
  /** Staff closed the conversation (locked_at set): the entry and its thread are read-only. */
  locked: 'This conversation has been closed, so it can no longer be changed or replied to',
  /** A client-made id that another row already has (practically only a forged request). */
  idTaken: 'This id is already in use',
  /**
   * An update made from an older copy: the entry was changed on another device since (412, issue 12).
   * The app shows both versions and lets the young person choose (docs/decisions.md).
   */
  editConflict: 'This was changed on another phone or tablet while you were changing it here.',
} as const;
