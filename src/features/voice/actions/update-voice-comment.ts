import { updateComment } from '@/entries/data/comments';
import type { CommentDraft, WriteResult } from '@/entries/data/types';

/** Edits a comment on a voice entry (POST .../comments/{id}?_method=PUT). */
export function updateVoiceComment(commentId: string, draft: CommentDraft): Promise<WriteResult> {
  return updateComment('voice', commentId, draft);
}
