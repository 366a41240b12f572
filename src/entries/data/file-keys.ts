/** Keys of entry and objective files in the replica's `files` collection (bytes base64 in an encrypted field). */
import type { EntryKind } from '@/contract/entry-kind';

/**
 * The `module` of GET /v1/files/view: an entry's files, an entry comment's, an objective
 * comment's (`task_comment`), a task log's file answers (`task_log`) or a reward's picture (`reward`,
 * cached ahead by src/data/replication/reward-pictures.ts under the same key).
 */
export type FileModule = EntryKind | 'comment' | 'task_comment' | 'task_log' | 'reward';

/** A file the server has, cached after viewing it online. */
export const fileCacheKey = (module: FileModule, fileId: string): string => `file:${module}:${fileId}`;
/** A file written on this device and not uploaded yet (its id is a local uuid). */
export const localFileKey = (fileId: string): string => `local:${fileId}`;
