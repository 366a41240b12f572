import type { WriteResult } from '@/entries/data/types';
import { writeTaskComment, type TaskCommentDraft } from './write-task-comment';

/** A comment on an objective (POST /v1/tasks/logs/comments; SPEC §8 "There was an error posting your comment."). */
export function postTaskComment(logId: string, draft: TaskCommentDraft): Promise<WriteResult> {
  return writeTaskComment({ kind: 'create', logId, isReview: false }, draft);
}
