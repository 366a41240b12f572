/**
 * A large write in slices of the main thread (issue 13, no long task). RxDB writes a pulled page
 * with one Dexie `bulkPut`, and Dexie issues every IndexedDB `put` of it in one synchronous loop: a
 * page of 1,000 calendar instances was one task of 50-80 ms here (Chromium's long-animation-frame
 * entries during the initial sync, `IDBRequest.onsuccess`), about four times that on a cheap phone.
 *
 * This Dexie middleware on each collection's documents table issues a put of more than
 * `PUTS_PER_SLICE` documents as consecutive puts of at most that many, in the same transaction,
 * each started from the success of the one before (so in a task of its own; the transaction stays
 * active while requests are pending and in the microtasks of their success events). The answer is
 * the one request's: failures by position in the whole list, every result in order.
 */
import type { DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, Dexie } from 'dexie';
import { docsTableMiddleware } from './docs-table-middleware';

/** Puts issued in one go, at most. */
export const PUTS_PER_SLICE = 250;

/** A plain put or add of many values (not one of Dexie's modify requests, which carry criteria or changes). */
function isBulkPut(request: DBCoreMutateRequest): request is Extract<DBCoreMutateRequest, { type: 'put' | 'add' }> {
  if (request.type !== 'put' && request.type !== 'add') return false;
  if (request.type === 'put' && (request.criteria || request.changeSpec || request.updates)) return false;
  return request.values.length > PUTS_PER_SLICE;
}

async function mutate(table: DBCoreTable, request: DBCoreMutateRequest): Promise<DBCoreMutateResponse> {
  if (!isBulkPut(request)) return table.mutate(request);
  const merged: DBCoreMutateResponse = { numFailures: 0, failures: {}, results: [], lastResult: undefined };
  for (let offset = 0; offset < request.values.length; offset += PUTS_PER_SLICE) {
    const end = offset + PUTS_PER_SLICE;
    const slice = { ...request, values: request.values.slice(offset, end), ...(request.keys ? { keys: request.keys.slice(offset, end) } : {}) };
    const answer = await table.mutate(slice);
    merged.numFailures += answer.numFailures;
    for (const [index, error] of Object.entries(answer.failures)) merged.failures[offset + Number(index)] = error;
    merged.results!.push(...(answer.results ?? []));
    merged.lastResult = answer.lastResult;
  }
  return merged;
}

export const putsInSlices = docsTableMiddleware('hearth-puts-in-slices', (table) => ({ mutate: (request) => mutate(table, request) }));

/** For RxDB's Dexie settings (`onCreate`): adds the middleware above to each database it creates. */
export function writeManyInSlices(db: Dexie): void {
  db.use(putsInSlices);
}
