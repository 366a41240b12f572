import { updateComment } from '@/data/entries/comments';
import type { CommentDraft, WriteResult } from '@/data/entries/types';

/** Edits a comment on a voice entry (POST .../comments/{id}?_method=PUT). */
export function updateVoiceComment(commentId: string, draft: CommentDraft): Promise<WriteResult> {
  return updateComment('voice', commentId, draft);
}
