import { updateComment } from '@/entries/data/comments';
import type { CommentDraft, WriteResult } from '@/entries/data/types';

/** Edits a comment on a journal entry (POST .../comments/{id}?_method=PUT). */
export function updateJournalComment(commentId: string, draft: CommentDraft): Promise<WriteResult> {
  return updateComment('journal', commentId, draft);
}
