/**
 * The replica's documents that hold something not on the server: a change waiting to be sent
 * (`pending`) or one that was not taken (`failed`). What the outbox does not account for is what
 * ../unsent-on-device.ts looks for: a change whose write never reached the queue (the page closed
 * between the two), and a refusal kept only on the device.
 */
import type { RxCollection } from 'rxdb';
import type { ReplicaCollectionName } from './local-writes';
import type { ReplicaDatabase } from './replica-store';
import { syncFields } from './types';

/** The collections a young person's writes change (every other one only ever holds the server's rows). */
export const LOCALLY_WRITTEN: readonly ReplicaCollectionName[] = ['journal', 'voice', 'comments', 'tasks', 'points', 'documents', 'resident'];

export interface UnsentDocument {
  readonly collection: ReplicaCollectionName;
  readonly id: string;
  readonly state: 'pending' | 'failed';
  readonly outboxId: string | null;
  /** When the document was last written on this device (RxDB's `_meta.lwt`, ms epoch). */
  readonly writtenAt: number;
}

type SyncDoc = { id: string; sync_state?: string; sync_outbox_id?: string | null; _meta?: { lwt?: number } };

const collectionOf = (db: ReplicaDatabase, name: ReplicaCollectionName) => db.collections[name] as unknown as RxCollection<SyncDoc>;

/**
 * Every pending or failed document. `sync_state` is stored in clear but not indexed: each
 * collection is read through once, which only a start and a logout ask for.
 */
export async function findUnsentDocuments(db: ReplicaDatabase): Promise<UnsentDocument[]> {
  const found: UnsentDocument[] = [];
  for (const collection of LOCALLY_WRITTEN) {
    const docs = await collectionOf(db, collection).find({ selector: { sync_state: { $in: ['pending', 'failed'] } } }).exec();
    for (const doc of docs) {
      const data = doc.toJSON(true) as SyncDoc;
      found.push({
        collection,
        id: data.id,
        state: data.sync_state as UnsentDocument['state'],
        outboxId: data.sync_outbox_id ?? null,
        writtenAt: data._meta?.lwt ?? 0,
      });
    }
  }
  return found;
}

/**
 * Marks a change that never reached the outbox as not sent, if the document still waits on that
 * same write: a change made since, or an outcome applied meanwhile, stays as it is. The words stay
 * on the device, where the young person can open them and save them again. True when marked.
 */
export async function markNeverQueued(db: ReplicaDatabase, document: Pick<UnsentDocument, 'collection' | 'id' | 'outboxId'>, message: string): Promise<boolean> {
  const doc = await collectionOf(db, document.collection).findOne(document.id).exec();
  if (!doc) return false;
  let marked = false;
  await doc.incrementalModify((latest) => {
    marked = latest.sync_state === 'pending' && (latest.sync_outbox_id ?? null) === document.outboxId;
    return marked ? { ...latest, ...syncFields({ state: 'failed', message, outbox_id: null }) } : latest;
  });
  return marked;
}
