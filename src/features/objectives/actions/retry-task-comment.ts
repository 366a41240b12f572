import type { WriteResult } from '@/entries/data/types';
import { writeTaskComment } from './write-task-comment';

/** Sends a refused (or unsent) comment or review again as it is: its text and photos were kept. */
export function retryTaskComment(logId: string, commentId: string): Promise<WriteResult> {
  return writeTaskComment({ kind: 'retry', logId, commentId }, null);
}
