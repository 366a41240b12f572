import { postComment } from '@/entries/data/comments';
import type { CommentDraft, WriteResult } from '@/entries/data/types';

/** A comment or reply on a journal entry (SPEC §8: "Failed to post reply." when refused). */
export function postJournalComment(entryId: string, draft: CommentDraft): Promise<WriteResult> {
  return postComment('journal', entryId, draft);
}
