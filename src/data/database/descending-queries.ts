/**
 * Newest-first pages without reading everything (issue 13). RxDB's query planner treats every
 * descending sort as "not satisfied by the index" (most storages cannot walk an index backwards),
 * so RxDB's Dexie storage reads every document in the range, sorts them in memory and keeps the
 * first `limit`: the journal list read all 1,000 entries from IndexedDB to show 20.
 *
 * IndexedDB can walk an index backwards (a `prev` cursor). This wrapper, directly on the Dexie
 * storage (below the encryption: it sees stored documents), answers a query that way when the
 * walk gives exactly the order RxDB expects: every sort part descending, and the sort fields are
 * the plan's index after the fields the selector pins to one value (RxDB's own `_deleted` first).
 * Then the cursor stops after `skip + limit` matches. Anything else goes to RxDB's own query.
 *
 * Write sorts for it as `[{ sort_key: 'desc' }, { id: 'desc' }]`: RxDB adds the primary key
 * ascending to a sort that lacks it, which a backward walk cannot give.
 */
import type { DexieStorageInternals, FilledMangoQuery, PreparedQuery, RxQueryPlan, RxStorage, RxStorageInstance, RxStorageQueryResult } from 'rxdb';
import { getQueryMatcher } from 'rxdb';
import { DEXIE_DOCS_TABLE_NAME, dexieReplaceIfStartsWithPipe, fromDexieToStorage, getKeyRangeByQueryPlan } from 'rxdb/plugins/storage-dexie';
import { patchInstances } from './patch-instances';

type Doc = Record<string, unknown>;
type DexieInstance = RxStorageInstance<Doc, DexieStorageInternals, unknown>;

/** True when walking the plan's index backwards gives the query's sort order exactly. */
export function isBackwardWalk(sort: FilledMangoQuery<unknown>['sort'], plan: RxQueryPlan): boolean {
  if (plan.sortSatisfiedByIndex || sort.length === 0) return false;
  const fields: string[] = [];
  for (const part of sort) {
    const [field, direction] = Object.entries(part)[0] ?? [];
    if (!field || direction !== 'desc') return false;
    fields.push(field);
  }
  // The index fields before the sort fields must each be pinned to one value by the selector: the
  // range's two ends agree on them, so every key between has them too (whether the ends themselves
  // are in the range or not: `$lt` on the sort field makes the end exclusive, the prefix stays).
  const pinned = plan.index.length - fields.length;
  if (pinned < 0) return false;
  for (let i = 0; i < pinned; i++) {
    if (plan.startKeys[i] !== plan.endKeys[i]) return false;
  }
  return fields.every((field, i) => plan.index[pinned + i] === field);
}

async function backwardQuery(instance: DexieInstance, prepared: PreparedQuery<Doc>): Promise<RxStorageQueryResult<Doc>> {
  const state = await instance.internals;
  const query = prepared.query;
  const plan = prepared.queryPlan;
  const skip = query.skip ?? 0;
  const wanted = skip + (typeof query.limit === 'number' ? query.limit : Infinity);
  const matches = plan.selectorSatisfiedByIndex ? null : getQueryMatcher(instance.schema, query as FilledMangoQuery<Doc>);
  let range: IDBKeyRange;
  try {
    range = getKeyRangeByQueryPlan(state.booleanIndexes, plan, (state.dexieDb as unknown as { _options: { IDBKeyRange: typeof IDBKeyRange } })._options.IDBKeyRange);
  } catch (error) {
    // An empty range, as RxDB's own query treats it.
    if ((error as { name?: string }).name === 'DataError') return { documents: [] };
    throw error;
  }
  const rows: Doc[] = [];
  if (wanted > 0) {
    await state.dexieDb.transaction('r', state.dexieTable, async (transaction) => {
      const indexName = `[${plan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
      const request = transaction.idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName).openCursor(range, 'prev');
      await new Promise<void>((resolve, reject) => {
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return resolve();
          const doc = fromDexieToStorage(state.booleanIndexes, cursor.value) as Doc;
          if (!matches || matches(doc as never)) rows.push(doc);
          if (rows.length >= wanted) resolve();
          else cursor.continue();
        };
      });
    });
  }
  return { documents: (skip > 0 ? rows.slice(skip) : rows) as RxStorageQueryResult<Doc>['documents'] };
}

/** Wraps RxDB's Dexie storage so newest-first queries walk their index backwards (see above). */
export function descendingQueriesStorage<O>(storage: RxStorage<DexieStorageInternals, O>): RxStorage<DexieStorageInternals, O> {
  return patchInstances(storage, (instance) => {
    const dexie = instance as unknown as DexieInstance;
    const query = dexie.query.bind(dexie);
    dexie.query = (prepared) =>
      isBackwardWalk(prepared.query.sort as FilledMangoQuery<unknown>['sort'], prepared.queryPlan) ? backwardQuery(dexie, prepared) : query(prepared);
  });
}
