import { updateComment } from '@/data/entries/comments';
import type { CommentDraft, WriteResult } from '@/data/entries/types';

/** Edits a comment on a journal entry (POST .../comments/{id}?_method=PUT). */
export function updateJournalComment(commentId: string, draft: CommentDraft): Promise<WriteResult> {
  return updateComment('journal', commentId, draft);
}
