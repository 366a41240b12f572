/**
 * Profile photos cached encrypted in the replica's `files` collection (`photo:<user id>`, bytes as
 * base64 in an encrypted field). Fetched through src/api when missing and online; a photo the
 * server does not have is remembered (data null) for a day. A photo of someone no row on the
 * device names any more (a member of staff who left the home) is collected by the file sweep
 * (src/data/replication/photo-names.ts, where the key is made); the young person's own never is.
 */
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import { getProfilePhoto } from '@/api/users/get-profile-photo';
import type { Result } from '@/api/result';
import type { ReplicaDatabase } from '../replica/replica-store';
import { SYNCED, syncFields, type FileDoc } from '../replica/types';
import { photoKey } from '../replication/photo-names';

export const PHOTO_RETRY_AFTER_MS = 24 * 3600_000;

export function blobOf(doc: Pick<FileDoc, 'data' | 'content_type'>): Blob | null {
  return doc.data ? new Blob([base64ToBytes(doc.data)], { type: doc.content_type }) : null;
}

/** True when the cached entry is missing, or a remembered "no photo" is old enough to ask again. */
export function photoNeedsFetch(doc: FileDoc | null, now = Date.now()): boolean {
  if (!doc) return true;
  return doc.data === null && now - Date.parse(doc.updated_at) > PHOTO_RETRY_AFTER_MS;
}

const inFlight = new Map<string, Promise<void>>();

/**
 * Fetches bytes once (concurrent callers share the request) and stores them, or the server's
 * "none" (404, data null), encrypted under `cacheKey`. Offline or failing: nothing is stored.
 */
export function fetchAndCacheFile(
  db: ReplicaDatabase,
  cacheKey: string,
  kind: FileDoc['kind'],
  fetcher: () => Promise<Result<Blob>>,
): Promise<void> {
  const key = `${db.name}:${cacheKey}`;
  let running = inFlight.get(key);
  if (!running) {
    running = (async () => {
      const result = await fetcher();
      if (!result.ok && result.status !== 404) return; // offline or failing: try another time
      const data = result.ok && result.data.size > 0 ? bytesToBase64(new Uint8Array(await result.data.arrayBuffer())) : null;
      const doc: FileDoc = {
        id: cacheKey,
        kind,
        updated_at: new Date().toISOString(),
        content_type: result.ok ? result.data.type || 'application/octet-stream' : '',
        data,
        ...syncFields(SYNCED),
      };
      if (!db.closed) await db.files.upsert(doc);
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}

/** Fetches one photo and stores it (or its absence) encrypted. Offline: nothing happens. */
export function fetchAndCachePhoto(db: ReplicaDatabase, userId: string): Promise<void> {
  return fetchAndCacheFile(db, photoKey(userId), 'photo', () => getProfilePhoto(userId));
}
