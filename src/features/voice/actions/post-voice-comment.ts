import { postComment } from '@/data/entries/comments';
import type { CommentDraft, WriteResult } from '@/data/entries/types';

/** A comment or reply on a voice entry. */
export function postVoiceComment(entryId: string, draft: CommentDraft): Promise<WriteResult> {
  return postComment('voice', entryId, draft);
}
