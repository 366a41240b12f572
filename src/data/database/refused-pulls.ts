/**
 * Pulled copies the storage refused. RxDB's pull replication reads the stored document, then writes
 * the pulled copy with the revision it read; a local write in between (the outbox settling that very
 * document) makes the write a conflict (409). A pull-only replication ignores it (RxDB leaves
 * conflicts to an upstream, and ours have none) while its checkpoint moves past the row, so the
 * server's copy would never arrive: the device kept its own older words for good (found by the
 * chaos suite, issue 12). This wrapper hands such refused copies to the pull of their collection,
 * which writes them again on the document as it is now (src/data/replication/pull.ts).
 *
 * It sits below the collections' own rules (./keep-newest.ts: a copy they refuse stays refused) and
 * above the encryption, so it sees plain documents.
 */
import type { RxStorage, RxStorageInstance } from 'rxdb';
import { patchInstances } from './patch-instances';

export type RefusedCopy = Record<string, unknown> & { id: string };
type Listener = (copy: RefusedCopy) => void;
type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;

/** RxDB's context for the writes of a replication's pulls (`replication-downstream-<checkpoint key>`). */
const DOWNSTREAM = 'replication-downstream-';

const listeners = new Map<string, Set<Listener>>();
const keyOf = (databaseName: string, collectionName: string) => `${databaseName}/${collectionName}`;

/** Calls `listener` with every pulled copy of this collection the storage refused as a conflict. */
export function onRefusedPull(databaseName: string, collectionName: string, listener: Listener): () => void {
  const key = keyOf(databaseName, collectionName);
  const set = listeners.get(key) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(key, set);
  return () => {
    set.delete(listener);
    if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
  };
}

/** Replaces the instance's bulkWrite in place, as ./keep-newest.ts does (a proxy would loop). */
function watchInstance(instance: AnyInstance, key: string): AnyInstance {
  const original = instance.bulkWrite.bind(instance);
  instance.bulkWrite = async (rows, context) => {
    const result = await original(rows, context);
    if (context.startsWith(DOWNSTREAM)) {
      for (const error of result.error) {
        if (error.status !== 409) continue;
        for (const listener of listeners.get(key) ?? []) listener(error.writeRow.document as unknown as RefusedCopy);
      }
    }
    return result;
  };
  return instance;
}

export function refusedPullsStorage<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return patchInstances(storage, (instance, params) => watchInstance(instance as unknown as AnyInstance, keyOf(params.databaseName, params.collectionName)));
}
