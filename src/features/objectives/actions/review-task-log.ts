import type { EntryFile } from '@/contract/entries';
import type { WriteResult } from '@/entries/data/types';
import { writeTaskComment } from './write-task-comment';

/**
 * The young person's review of a completed objective: a comment with `is_review` (the server adds
 * REVIEW_POINTS to the ledger in the same transaction, once per objective). Its photos were kept
 * encrypted on the device as they were added to the review form.
 */
export function reviewTaskLog(logId: string, review: { comment: string; photos: readonly EntryFile[] }): Promise<WriteResult> {
  return writeTaskComment({ kind: 'create', logId, isReview: true }, { comment: review.comment, storedFiles: review.photos });
}
