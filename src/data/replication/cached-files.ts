/**
 * Server files cached in the replica's `files` collection so they show offline, keyed
 * `file:<module>:<file id>`: `module` is what GET /v1/files/view is asked with (an entry's files, an
 * entry comment's, an objective comment's `task_comment`, a task log's file answers `task_log`, a
 * reward's picture). src/entries/data/file-keys.ts re-exports these for the screens; they live here
 * because the file sweep (./file-sweep.ts) must know every module, and src/data never imports
 * src/entries. No RxDB here: the entries' code imports it statically.
 */
import { ENTRY_KINDS } from '@/contract/entry-kind';

export const FILE_MODULES = [...ENTRY_KINDS, 'comment', 'task_comment', 'task_log', 'reward'] as const;
export type FileModule = (typeof FILE_MODULES)[number];

export const CACHED_FILE_PREFIX = 'file:';

/** A file the server has, cached after viewing it online (or moved from this device's own upload). */
export const fileCacheKey = (module: FileModule, fileId: string): string => `${CACHED_FILE_PREFIX}${module}:${fileId}`;

const isFileModule = (value: string): value is FileModule => (FILE_MODULES as readonly string[]).includes(value);

/** The module and file id of a cached file's key; null for any other key (`local:`, `draft:`, an unknown module). */
export function parseFileCacheKey(key: string): { module: FileModule; fileId: string } | null {
  if (!key.startsWith(CACHED_FILE_PREFIX)) return null;
  const rest = key.slice(CACHED_FILE_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) return null;
  const module = rest.slice(0, colon);
  const fileId = rest.slice(colon + 1);
  return isFileModule(module) && fileId !== '' ? { module, fileId } : null;
}
