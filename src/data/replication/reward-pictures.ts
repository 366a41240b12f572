/**
 * Reward pictures are cached for offline use (issue 10), encrypted in the replica's `files`
 * collection like entry files: after the catalogue or the history has been pulled, every picture
 * they name that is not cached yet is fetched once (GET /v1/files/view?module=reward) and stored
 * under `file:reward:<file id>` (./cached-files.ts `fileCacheKey('reward', id)`), where the screens
 * look (useEntryFile). Offline or failing: nothing is stored, the next pull tries again. A picture
 * the server no longer has (404) is remembered as missing. A picture no reward and no exchange names
 * any more leaves with the file sweep that follows (./file-sweep.ts).
 */
import { viewFile } from '@/api/files/view-file';
import { fetchAndCacheFile } from '../hooks/photo-cache';
import type { ReplicaDatabase } from '../replica/replica-store';
import { rewardOf } from '../replica/rewards';
import type { LookupDoc, RewardExchangeDoc } from '../replica/types';
import { fileCacheKey } from './cached-files';

export const rewardPictureKey = (fileId: string): string => fileCacheKey('reward', fileId);

/** Picture file ids the catalogue and the history name. */
async function pictureIds(db: ReplicaDatabase): Promise<string[]> {
  const ids = new Set<string>();
  for (const doc of await db.lookups.find({ selector: { kind: 'reward' } }).exec()) {
    const image = rewardOf(doc.toJSON() as unknown as LookupDoc).image;
    if (image) ids.add(image.id);
  }
  for (const doc of await db.points.find({ selector: { kind: 'exchange' } }).exec()) {
    const image = (doc.toJSON() as unknown as RewardExchangeDoc).reward?.image;
    if (image) ids.add(image.id);
  }
  return [...ids];
}

/** Fetches and caches the pictures not cached yet, one at a time (they are a few kilobytes each). */
export async function cacheRewardPictures(db: ReplicaDatabase): Promise<void> {
  if (db.closed) return;
  const ids = await pictureIds(db);
  if (ids.length === 0) return;
  const cached = await db.files.findByIds(ids.map(rewardPictureKey)).exec();
  for (const id of ids) {
    if (db.closed) return;
    if (cached.has(rewardPictureKey(id))) continue;
    await fetchAndCacheFile(db, rewardPictureKey(id), 'file', () => viewFile(id, 'reward'));
  }
}
