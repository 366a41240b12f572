/** Keys of entry files in the replica's `files` collection (bytes base64 in an encrypted field). */
import type { EntryKind } from '@/contract/entry-kind';

export type FileModule = EntryKind | 'comment';

/** A file the server has, cached after viewing it online. */
export const fileCacheKey = (module: FileModule, fileId: string): string => `file:${module}:${fileId}`;
/** A file written on this device and not uploaded yet (its id is a local uuid). */
export const localFileKey = (fileId: string): string => `local:${fileId}`;
