/**
 * Which profile photos (`photo:<user id>`, src/data/hooks/photo-cache.ts) a replica row names, so
 * the file sweep (./file-sweep.ts) lets a photo go once no row on the device names that person: a
 * member of staff who left the young person's home keeps no photo on their device.
 *
 * A row names every person in it that the contract marks with `has_photo` true, wherever the row
 * holds one: the staff list's row is the person itself (its id is the user id), an entry's or a
 * comment's `creator`, a task log's and its comments' creators, a shift's `user`, a feedback item's
 * latest commenter, an exchange's `decided_by`, the resident details' `key_worker`. Those are the
 * people the screens show a photo for (PersonAvatar, the threads), and only when `has_photo` is true:
 * a person without one names no photo. Found by shape (an object with a string `id` and
 * `has_photo`), so a person the contract adds to a row is counted without a list to keep.
 *
 * A row with a local change names what its parked server copy names too; a deleted row names
 * nothing. The signed-in young person's own photo is never collected, so it is never counted.
 */
import type { ReplicaDatabase } from '../replica/replica-store';

export const PHOTO_PREFIX = 'photo:';
export const photoKey = (userId: string): string => `${PHOTO_PREFIX}${userId}`;

type Plain = Record<string, unknown>;

const isObject = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

function collect(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item === 'object' && item !== null) collect(item, found);
    return;
  }
  if (!isObject(value)) return;
  if (value.has_photo === true && typeof value.id === 'string') found.add(value.id);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) collect(inner, found);
}

/** The photo keys a row names, the young person's own (`own`) left out. */
export function photoNamesOf(doc: Plain, own: string): string[] {
  if (doc._deleted === true) return [];
  const { sync_server: parked, ...row } = doc;
  const found = new Set<string>();
  collect(row, found);
  if (isObject(parked) && parked._deleted !== true) collect(parked, found);
  found.delete(own);
  return [...found].map(photoKey);
}

/**
 * The photos the young person's own records name (the key worker on their details): two small
 * documents, read each pass rather than kept in the sweep's summary.
 */
export async function residentPhotoNames(db: ReplicaDatabase, own: string): Promise<Set<string>> {
  const docs = await db.resident.find().exec();
  return new Set(docs.flatMap((doc) => photoNamesOf(doc.toJSON() as Plain, own)));
}
