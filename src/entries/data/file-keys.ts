/**
 * Keys of entry and objective files in the replica's `files` collection (bytes base64 in an
 * encrypted field). `FileModule` is the `module` of GET /v1/files/view (an entry's files, an entry
 * comment's, an objective comment's `task_comment`, a task log's file answers `task_log` or a
 * reward's picture `reward`, cached ahead by src/data/replication/reward-pictures.ts under the same
 * key) and `fileCacheKey` a file the server has, cached after viewing it online: both are defined
 * beside the sweep that removes cached files no row names any more (src/data/replication/file-sweep.ts).
 */
export { fileCacheKey, type FileModule } from '../../data/replication/cached-files';

/** A file written on this device and not uploaded yet (its id is a local uuid). */
export const localFileKey = (fileId: string): string => `local:${fileId}`;
