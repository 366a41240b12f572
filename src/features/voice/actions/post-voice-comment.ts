import { postComment } from '@/entries/data/comments';
import type { CommentDraft, WriteResult } from '@/entries/data/types';

/** A comment or reply on a voice entry. */
export function postVoiceComment(entryId: string, draft: CommentDraft): Promise<WriteResult> {
  return postComment('voice', entryId, draft);
}
