/**
 * A cached file leaves the device when nothing on it names it any more (stop 45): a reward paused
 * or withdrawn (or the old home's, after a move), an entry deleted or no longer the young person's
 * to see, a comment on such an entry, a log removed. A photo in a deleted journal entry is a
 * child's private data that they deleted.
 *
 * The rule, kept explicit:
 * - only `file:<module>:<file id>` documents (./cached-files.ts, a module it knows) and profile
 *   photos (`photo:<user id>`) are ever collected; never `local:` (this device's own files, which
 *   the outbox's settle moves to the server's ids), `draft:`, `kept:` (the documents keeper's own,
 *   src/data/documents/keeper.ts) or `summary:` documents, nor the signed-in young person's own photo;
 * - only when no row on the device names that key (./named-files.ts): a pending or failed row is
 *   a row, its parked server copy too, and a comment counts while its entry is here. A photo is
 *   named by every row holding that person with a photo (./photo-names.ts: the staff list, the
 *   creators of entries, comments and logs, the roster, feedback, the key worker);
 * - never when a kept draft mentions the file's id (src/data/drafts.ts);
 * - never a file or photo stored in the last `graceMs`: settle stores an upload's bytes under the
 *   server's id a moment before the entry names it, and a picture is fetched for a reward that just
 *   came back.
 * A file is emptied in the write that deletes it (RxDB keeps a deleted document's last data), made
 * on the revision read (../replica/remove-emptied.ts): a file stored again meanwhile makes it a
 * conflict, and it stays. `files` is local to the device (no replication pushes it, the outbox has
 * its own store), so removing one makes no outbox write.
 *
 * The same pass blanks deleted rows that still hold content (./blank-deleted.ts).
 *
 * When: after the pulls of rows that name files (journal, voice, objectives, comment threads,
 * rewards and their history), once no pull is running (one pass for a batch of pulls, never before
 * the first screen: pulls start after it). Passes run one at a time per replica; a request during a
 * pass runs one more pass after it.
 */
import { draftId } from '../drafts';
import { replicaPasses } from '../replica/passes';
import { removeEmptied } from '../replica/remove-emptied';
import type { OpenReplica, ReplicaDatabase } from '../replica/replica-store';
import { BLANKED_COLLECTIONS, blankDeletedRows, needsBlanking } from './blank-deleted';
import { CACHED_FILE_PREFIX, parseFileCacheKey } from './cached-files';
import { NamedFiles } from './named-files';
import { PHOTO_PREFIX, photoKey, residentPhotoNames } from './photo-names';
import { liveIdsStartingWith } from './stored-ids';
import { replicationStatus } from './sync-status';

export const GRACE_MS = 2 * 60_000;
/** A pass waits this long at most for the pulls to be quiet (a thread's replication may keep one busy). */
const QUIET_WAIT_MS = 30_000;

interface SweepConfig {
  readonly graceMs: number;
}
const defaults = (): SweepConfig => ({ graceMs: GRACE_MS });
let config: SweepConfig = defaults();

/** Tests collect at once what they have just cached. */
export function configureFileSweep(partial: Partial<SweepConfig>): void {
  config = { ...config, ...partial };
}
export function resetFileSweepConfig(): void {
  config = defaults();
}

/** What one pass did (tests and the bench). */
export interface SweepReport {
  readonly cached: number;
  readonly collected: number;
  readonly blanked: number;
  /** Profile photos collected. */
  readonly photos: number;
}

const indexes = new WeakMap<ReplicaDatabase, NamedFiles>();
/**
 * The replica's own changes-since read (`OpenReplica.changesSince`), never RxDB imported here: pages
 * reach this module (a thread's replication), and RxDB in a page's chunk breaks the replica
 * (docs/decisions.md "RxDB in entries (stop 40)").
 */
type Sweepable = Pick<OpenReplica, 'db' | 'changesSince' | 'identity'>;
const namedFilesOf = ({ db, changesSince, identity }: Sweepable): NamedFiles => {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new NamedFiles(db, changesSince, identity.userId)));
  return index;
};

type Collection = (typeof BLANKED_COLLECTIONS)[number];
type Plain = Record<string, unknown> & { id: string };

/** Brings the index up to date and blanks the deleted rows it read that still hold content. */
async function catchUp(db: ReplicaDatabase, index: NamedFiles): Promise<number> {
  const toBlank = new Map<Collection, Plain[]>();
  await index.catchUp(BLANKED_COLLECTIONS, (collection, doc) => {
    if (!needsBlanking(db, collection, doc)) return;
    const list = toBlank.get(collection as Collection) ?? [];
    list.push(doc);
    toBlank.set(collection as Collection, list);
  });
  let blanked = 0;
  for (const [collection, docs] of toBlank) blanked += await blankDeletedRows(db, collection, docs);
  return blanked;
}

/** Of these keys, those whose file id no kept draft mentions (drafts are few and small). */
async function notInDrafts(db: ReplicaDatabase, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const ids = await liveIdsStartingWith(db.files, draftId(''));
  if (ids.length === 0) return [...keys];
  const texts = [...(await db.files.findByIds(ids).exec()).values()].map((doc) => String(doc.get('data') ?? ''));
  return keys.filter((key) => !texts.some((text) => text.includes(parseFileCacheKey(key)!.fileId)));
}

async function erase(db: ReplicaDatabase, keys: readonly string[], now: number): Promise<number> {
  if (keys.length === 0) return 0;
  let erased = 0;
  for (const doc of (await db.files.findByIds([...keys]).exec()).values()) {
    if (db.closed) break;
    if (now - Date.parse(doc.get('updated_at') as string) < config.graceMs) continue;
    const done = await removeEmptied(doc)
      .then(() => true)
      .catch(() => false);
    if (done) erased += 1;
  }
  return erased;
}

/** One pass: what is cached, what is named, what goes. */
export async function sweepOnce(open: Sweepable): Promise<SweepReport> {
  const { db } = open;
  const index = namedFilesOf(open);
  // What is cached first, what is named after: a file (a photo) is stored after the row that names
  // it (shows it), so every one listed here has its row in the catch-up below.
  const cached = (await liveIdsStartingWith(db.files, CACHED_FILE_PREFIX)).filter((key) => parseFileCacheKey(key) !== null);
  const own = photoKey(open.identity.userId);
  const photos = (await liveIdsStartingWith(db.files, PHOTO_PREFIX)).filter((key) => key !== own);
  let blanked = await catchUp(db, index);
  const namedFirst = index.named();
  let unnamed = cached.filter((key) => !namedFirst.has(key));
  let unnamedPhotos = photos.filter((key) => !namedFirst.has(key));
  let collected = 0;
  let photosCollected = 0;
  if (unnamed.length > 0 || unnamedPhotos.length > 0) {
    unnamed = await notInDrafts(db, unnamed);
    // Again just before: a row written during the pass (a reward back again) keeps its file.
    blanked += await catchUp(db, index);
    const named = index.named();
    unnamed = unnamed.filter((key) => !named.has(key));
    if (unnamedPhotos.length > 0) {
      const ownRecords = await residentPhotoNames(db, open.identity.userId);
      unnamedPhotos = unnamedPhotos.filter((key) => !named.has(key) && !ownRecords.has(key));
    }
    const now = Date.now();
    collected = await erase(db, unnamed, now);
    photosCollected = await erase(db, unnamedPhotos, now);
  }
  await index.store();
  return { cached: cached.length, collected, blanked, photos: photosCollected };
}

function whenPullsQuiet(): Promise<void> {
  if (!replicationStatus.get().syncing) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, QUIET_WAIT_MS);
    const unsubscribe = replicationStatus.subscribe(() => {
      if (!replicationStatus.get().syncing) done();
    });
  });
}

/** The sweep's changes-since read, per replica (the passes below are keyed by its database). */
const reads = new WeakMap<ReplicaDatabase, Sweepable>();
const passes = replicaPasses({
  before: whenPullsQuiet,
  // Set by sweepCachedFiles, the only way a pass is asked for.
  run: (db) => sweepOnce(reads.get(db)!),
  closed: (db) => db.files.closed,
  failure: 'Sweeping cached files failed',
});

/** Asks for a pass (or one more after the running one). Never rejects. */
export function sweepCachedFiles(open: Sweepable): Promise<void> {
  reads.set(open.db, open);
  return passes.request(open.db);
}

/** Resolves when no pass is running for this replica (tests). */
export const fileSweepIdle = (db: ReplicaDatabase): Promise<void> => passes.idle(db);
