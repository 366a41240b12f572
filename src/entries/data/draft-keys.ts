/**
 * Where each form keeps what is being written (src/data/hooks/use-kept-draft.ts). One draft per
 * form a person can come back to: a new journal entry, a new voice entry per category (the voice
 * screen opens the one written in last), an entry being edited, a reply to a conversation or an
 * objective, a comment being edited.
 */
import type { EntryKind } from '@/contract/entry-kind';

export const newJournalDraftKey = 'entry:journal:new';
export const newVoiceDraftKey = (categoryId: string): string => `entry:voice:new:${categoryId}`;
export const entryEditDraftKey = (kind: EntryKind, entryId: string): string => `entry:${kind}:${entryId}`;
/** `thread` is what is replied to: `journal`, `voice` or `task` (an objective's log). */
export const replyDraftKey = (thread: string, id: string): string => `reply:${thread}:${id}`;
export const commentEditDraftKey = (commentId: string): string => `comment-edit:${commentId}`;
