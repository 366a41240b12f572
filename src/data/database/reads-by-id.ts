/**
 * Many documents by id without an IndexedDB request per id that is not stored (issue 13, the
 * initial sync). RxDB's Dexie storage answers `findDocumentsById` with Dexie's `bulkGet`: a `get`
 * per id. A pulled page of 500 is read that way twice before RxDB writes it (the pull's modifier
 * looking for pending local changes, RxDB's downstream reading the fork's state), and at a first
 * sync almost none of them are stored yet: in a Chromium profile of the 5,000-document sync these
 * requests were the largest cost on the main thread.
 *
 * This wrapper, directly on the Dexie storage (below the encryption, beside ./descending-queries.ts),
 * reads the stored keys between the smallest and the largest id asked for in one request and
 * `get`s only the ids among them. When that range holds more than `KEYS_PER_ID` keys per id asked
 * for (a large store), or fewer than `MANY_IDS` ids are asked for, Dexie's own read. The answer is
 * the same either way: the stored documents among `ids`, in the order asked, deleted ones only
 * `withDeleted`, all read in one transaction.
 */
import type { DexieStorageInternals, RxDocumentData, RxStorage, RxStorageInstance } from 'rxdb';
import { DEXIE_DOCS_TABLE_NAME, fromDexieToStorage } from 'rxdb/plugins/storage-dexie';
import { patchInstances } from './patch-instances';

type Doc = Record<string, unknown>;
type DexieInstance = RxStorageInstance<Doc, DexieStorageInternals, unknown>;

/** Fewer ids than this: Dexie's own read (a few requests cost less than reading the range's keys). */
export const MANY_IDS = 32;
/** Keys read per id asked for, at most, before the per-id read is the cheaper one. */
export const KEYS_PER_ID = 20;

type FindById = DexieInstance['findDocumentsById'];

async function findMany(instance: DexieInstance, dexieRead: FindById, ids: string[], withDeleted: boolean): Promise<RxDocumentData<Doc>[]> {
  const state = await instance.internals;
  // String keys compare by code units in IndexedDB, as `<` does here.
  let lowest = ids[0] as string;
  let highest = lowest;
  for (const id of ids) {
    if (id < lowest) lowest = id;
    else if (id > highest) highest = id;
  }
  const KeyRange = (state.dexieDb as unknown as { _options: { IDBKeyRange: typeof IDBKeyRange } })._options.IDBKeyRange;
  const range = KeyRange.bound(lowest, highest);
  const stored = await state.dexieDb.transaction('r', state.dexieTable, (transaction) => {
    const store = transaction.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME);
    // Every request is made from the callback of the one before, while the transaction is active.
    return new Promise<(Doc | undefined)[] | null>((resolve, reject) => {
      const failed = (request: IDBRequest) => () => reject(request.error);
      // One key more than the most worth reading: a full answer means too many, so Dexie's read.
      const limit = ids.length * KEYS_PER_ID;
      const keys = store.getAllKeys(range, limit + 1);
      keys.onerror = failed(keys);
      keys.onsuccess = () => {
        if (keys.result.length > limit) return resolve(null);
        const present = new Set(keys.result as string[]);
        const found = new Array<Doc | undefined>(ids.length);
        let waiting = 0;
        ids.forEach((id, index) => {
          if (!present.has(id)) return;
          waiting += 1;
          const get = store.get(id);
          get.onerror = failed(get);
          get.onsuccess = () => {
            found[index] = get.result as Doc | undefined;
            if (--waiting === 0) resolve(found);
          };
        });
        if (waiting === 0) resolve(found);
      };
    });
  });
  if (stored === null) return dexieRead(ids, withDeleted);
  const documents: RxDocumentData<Doc>[] = [];
  for (const row of stored) {
    if (!row) continue;
    const doc = fromDexieToStorage(state.booleanIndexes, row) as RxDocumentData<Doc>;
    if (!doc._deleted || withDeleted) documents.push(doc);
  }
  return documents;
}

/** Wraps RxDB's Dexie storage so reads of many ids skip the ids that are not stored (see above). */
export function readsByIdStorage<O>(storage: RxStorage<DexieStorageInternals, O>): RxStorage<DexieStorageInternals, O> {
  return patchInstances(storage, (instance) => {
    const dexie = instance as unknown as DexieInstance;
    const original = dexie.findDocumentsById.bind(dexie);
    dexie.findDocumentsById = (ids, withDeleted) => (ids.length < MANY_IDS ? original(ids, withDeleted) : findMany(dexie, original, ids, withDeleted));
  });
}
