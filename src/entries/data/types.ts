import type { FieldErrors } from '@/contract/envelope';

/** What a journal or voice screen hands to its save action. */
export interface EntryDraft {
  readonly description?: string | null;
  /** An emoji reaction (the emoji's text or id). */
  readonly reaction?: string | null;
  /** A new drawing, PNG (replaces the old one on update). */
  readonly canvas?: Blob | null;
  /** New attachments (images are resized on the device before queueing). */
  readonly files?: readonly File[];
  readonly sharedWith?: readonly string[];
  readonly sharedWithManagement?: boolean;
  /** Update: ids of attachments to drop. */
  readonly removeFiles?: readonly string[];
  /** Update: drop the drawing. */
  readonly removeCanvas?: boolean;
  /** Journal: local date yyyy-MM-dd and time HH:mm (default now); not in the future. */
  readonly entryDate?: string;
  readonly entryTime?: string;
  /** Voice: required. */
  readonly categoryId?: string;
}

export interface CommentDraft {
  readonly comment?: string | null;
  readonly reaction?: string | null;
  readonly files?: readonly File[];
  /** Update: ids of the comment's files to drop (objectives' comments; entry replies keep theirs). */
  readonly removeFiles?: readonly string[];
}

/** A write that was accepted on the device (queued; sent now or when back online). */
export interface WriteAccepted {
  readonly ok: true;
  /** The local document's id (the entry shows at once under it). */
  readonly id: string;
  /** The device is offline: show entryMessages.offlineRetry. */
  readonly queuedOffline: boolean;
}

/** A refusal before anything was queued: field errors (contract texts) and/or a message. */
export interface WriteRefused {
  readonly ok: false;
  readonly message: string;
  readonly errors: FieldErrors;
}

export type WriteResult = WriteAccepted | WriteRefused;
