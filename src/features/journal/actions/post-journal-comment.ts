import { postComment } from '@/data/entries/comments';
import type { CommentDraft, WriteResult } from '@/data/entries/types';

/** A comment or reply on a journal entry (SPEC §8: "Failed to post reply." when refused). */
export function postJournalComment(entryId: string, draft: CommentDraft): Promise<WriteResult> {
  return postComment('journal', entryId, draft);
}
