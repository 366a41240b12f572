import type { WriteResult } from '@/entries/data/types';
import { writeTaskComment, type TaskCommentDraft } from './write-task-comment';

/**
 * An edit of the young person's own comment (POST /v1/tasks/logs/comments/{id}?_method=PUT: text,
 * remove_files[], files[]; SPEC §8 "There was an error updating your comment.").
 */
export function updateTaskComment(logId: string, commentId: string, draft: TaskCommentDraft): Promise<WriteResult> {
  return writeTaskComment({ kind: 'update', logId, commentId }, draft);
}
