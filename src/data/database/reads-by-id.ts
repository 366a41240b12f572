/**
 * Many documents by id without an IndexedDB request per id that is not stored (issue 13, the
 * initial sync). Dexie answers `bulkGet` with a `get` per id, and RxDB's Dexie storage reads a
 * pulled page that way three times before it is stored: the pull's modifier looking for pending
 * local changes and RxDB's downstream reading the fork's state (both `findDocumentsById`), then the
 * storage's own write checking what is stored (`bulkWrite`). At a first sync almost none of them
 * are stored yet: in a Chromium profile of the 5,000-document sync these requests were the largest
 * cost on the main thread after the writes themselves.
 *
 * This is a Dexie middleware on each collection's documents table (RxDB's storage creates one Dexie
 * database per collection and lets `onCreate` add to it before it opens), so every one of those
 * reads goes through it: it reads the stored keys between the smallest and the largest id asked for
 * in one request and `get`s only the ids among them, in the same transaction. When that range holds
 * more than `KEYS_PER_ID` keys per id asked for (a large store), or fewer than `MANY_IDS` ids are
 * asked for, Dexie's own read. The answer is the same either way: one value per id asked, in that
 * order, `undefined` where none is stored.
 */
import type { DBCoreGetManyRequest, DBCoreKeyRange, DBCoreTable, Dexie } from 'dexie';
import { docsTableMiddleware } from './docs-table-middleware';

/** Fewer ids than this: Dexie's own read (a few requests cost less than reading the range's keys). */
export const MANY_IDS = 32;
/** Keys read per id asked for, at most, before the per-id read is the cheaper one. */
export const KEYS_PER_ID = 20;

/** `DBCoreRangeType.Range` (a const enum in Dexie's types, which isolated modules cannot import). */
const RANGE = 2 as DBCoreKeyRange['type'];

function getMany(table: DBCoreTable, request: DBCoreGetManyRequest): Promise<unknown[]> {
  const keys = request.keys;
  if (keys.length < MANY_IDS || !keys.every((key): key is string => typeof key === 'string')) return table.getMany(request);
  // String keys compare by code units in IndexedDB, as `<` does here.
  let lower = keys[0] as string;
  let upper = lower;
  for (const key of keys) {
    if (key < lower) lower = key;
    else if (key > upper) upper = key;
  }
  // One key more than the most worth reading: a full answer means too many, so Dexie's read.
  const limit = keys.length * KEYS_PER_ID;
  const range: DBCoreKeyRange = { type: RANGE, lower, upper, lowerOpen: false, upperOpen: false };
  return table.query({ trans: request.trans, values: false, limit: limit + 1, query: { index: table.schema.primaryKey, range } }).then(({ result }) => {
    if (result.length > limit) return table.getMany(request);
    const present = new Set(result as string[]);
    const stored = keys.filter((key) => present.has(key));
    if (stored.length === 0) return keys.map(() => undefined);
    return table.getMany({ ...request, keys: stored }).then((values) => {
      const byKey = new Map(stored.map((key, i) => [key, values[i]]));
      return keys.map((key) => byKey.get(key));
    });
  });
}

const readsById = docsTableMiddleware('hearth-reads-by-id', (table) => ({ getMany: (request) => getMany(table, request) }));

/** For RxDB's Dexie settings (`onCreate`): adds the middleware above to each database it creates. */
export function readManyByRange(db: Dexie): void {
  db.use(readsById);
}
