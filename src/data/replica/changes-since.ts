import { getChangedDocumentsSince, type RxStorageInstance } from 'rxdb';
import type { ChangesSince, ReplicaDatabase } from './replica-store';

/** The replica's changes-since read (./replica-store.ts, `ChangesSince`) over RxDB's own. */
export function changesSinceIn(db: ReplicaDatabase): ChangesSince {
  return async (collection, limit, checkpoint) => {
    const storage = db[collection].storageInstance as unknown as RxStorageInstance<Record<string, unknown>, unknown, unknown>;
    return (await getChangedDocumentsSince(storage, limit, checkpoint ?? undefined)).documents;
  };
}
