/**
 * A large write in slices (src/data/database/puts-in-slices.ts, a Dexie middleware): a put of more
 * than PUTS_PER_SLICE documents goes down as consecutive puts, each started once the one before has
 * answered, and the answer is the one request's. Then the whole path: RxDB on fake-indexeddb.
 */
import Dexie, { type DBCore, type DBCoreMutateRequest, type DBCoreMutateResponse, type DBCoreTable } from 'dexie';
import { IDBObjectStore } from 'fake-indexeddb';
import { DEXIE_DOCS_TABLE_NAME } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHearthDatabase } from '@/data/database/create-database';
import { PUTS_PER_SLICE, putsInSlices } from '@/data/database/puts-in-slices';
import { fakeIdb, notesCollection, randomKey, uniqueName } from './fixtures';

afterEach(() => vi.restoreAllMocks());

/** The middleware over a table that records each request it is given and answers it a moment later. */
function overRecorder(answer: (request: DBCoreMutateRequest) => DBCoreMutateResponse) {
  const seen: { size: number; keys: unknown[] | undefined; startedAfter: number }[] = [];
  let answered = 0;
  const down = {
    mutate: (request: DBCoreMutateRequest) => {
      const values = 'values' in request ? request.values : [];
      seen.push({ size: values.length, keys: 'keys' in request ? request.keys : undefined, startedAfter: answered });
      return new Promise<DBCoreMutateResponse>((resolve) =>
        setTimeout(() => {
          answered++;
          resolve(answer(request));
        }, 1),
      );
    },
  } as unknown as DBCoreTable;
  const core = putsInSlices.create!({ table: () => down } as never);
  return { table: (core as DBCore).table(DEXIE_DOCS_TABLE_NAME), seen };
}

const put = (values: unknown[], extra: Partial<DBCoreMutateRequest> = {}) => ({ type: 'put', trans: {}, values, keys: values.map((_, i) => `k${i}`), ...extra }) as DBCoreMutateRequest;

describe('puts in slices', () => {
  it('sends a large put down in slices, one after the other, and answers as one request', async () => {
    const count = PUTS_PER_SLICE * 2 + 17;
    const values = Array.from({ length: count }, (_, i) => ({ id: i }));
    const { table, seen } = overRecorder((request) => {
      const slice = (request as unknown as { values: { id: number }[] }).values;
      // The slice's second value fails: its position in the whole list is reported.
      return { numFailures: 1, failures: { 1: new Error(`failed ${slice[1]!.id}`) }, results: slice.map((v) => `r${v.id}`), lastResult: `r${slice.at(-1)!.id}` };
    });
    const answer = await table.mutate(put(values));
    expect(seen.map((s) => s.size)).toEqual([PUTS_PER_SLICE, PUTS_PER_SLICE, 17]);
    // Each slice starts only once the one before has answered.
    expect(seen.map((s) => s.startedAfter)).toEqual([0, 1, 2]);
    expect(seen[1]!.keys).toEqual(Array.from({ length: PUTS_PER_SLICE }, (_, i) => `k${PUTS_PER_SLICE + i}`));
    expect(answer.results).toEqual(values.map((v) => `r${v.id}`));
    expect(answer.lastResult).toBe(`r${count - 1}`);
    expect(answer.numFailures).toBe(3);
    expect(Object.entries(answer.failures).map(([at, error]) => [Number(at), error.message])).toEqual([
      [1, 'failed 1'],
      [PUTS_PER_SLICE + 1, `failed ${PUTS_PER_SLICE + 1}`],
      [PUTS_PER_SLICE * 2 + 1, `failed ${PUTS_PER_SLICE * 2 + 1}`],
    ]);
  });

  it('leaves small puts, deletes and Dexie’s own modify requests as they are', async () => {
    const ok = (request: DBCoreMutateRequest): DBCoreMutateResponse => ({ numFailures: 0, failures: {}, results: [], lastResult: request.type });
    const { table, seen } = overRecorder(ok);
    await table.mutate(put(Array.from({ length: PUTS_PER_SLICE }, (_, i) => i)));
    const many = Array.from({ length: PUTS_PER_SLICE + 1 }, (_, i) => i);
    await table.mutate(put(many, { criteria: { index: null, range: { type: 3 } } } as Partial<DBCoreMutateRequest>));
    await table.mutate({ type: 'delete', trans: {}, keys: many } as unknown as DBCoreMutateRequest);
    expect(seen.map((s) => s.size)).toEqual([PUTS_PER_SLICE, PUTS_PER_SLICE + 1, 0]);
  });

  it('keeps Dexie’s failures by position through IndexedDB (a bulkAdd over a stored key)', async () => {
    const db = new Dexie(uniqueName(), fakeIdb);
    db.version(1).stores({ [DEXIE_DOCS_TABLE_NAME]: 'id' });
    db.use(putsInSlices);
    const table = db.table(DEXIE_DOCS_TABLE_NAME);
    const taken = PUTS_PER_SLICE + 3;
    await table.add({ id: taken });
    const rows = Array.from({ length: PUTS_PER_SLICE * 2 }, (_, id) => ({ id }));
    const error = await table.bulkAdd(rows).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Dexie.BulkError);
    expect(Object.keys((error as InstanceType<typeof Dexie.BulkError>).failuresByPos).map(Number)).toEqual([taken]);
    expect(await table.count()).toBe(PUTS_PER_SLICE * 2);
    db.close();
  });

  it('writes a pulled page of many documents whole through RxDB, encrypted, in more than one go', async () => {
    const db = await createHearthDatabase({ name: uniqueName(), key: randomKey(), collections: { notes: notesCollection }, ...fakeIdb, multiInstance: false });
    try {
      const count = PUTS_PER_SLICE * 4;
      // Every put, and every answer to one, in the order they happen.
      const order: ('put' | 'answer')[] = [];
      const original = IDBObjectStore.prototype.put;
      const puts = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        const request = original.apply(this, args);
        order.push('put');
        request.addEventListener('success', () => order.push('answer'));
        return request;
      });
      const written = await db.notes.bulkInsert(Array.from({ length: count }, (_, i) => ({ id: `n-${String(i).padStart(5, '0')}`, text: `note ${i}` })));
      expect(written.error).toEqual([]);
      expect(puts).toHaveBeenCalledTimes(count);
      // The first slice's puts all went out before any was answered; the next waited for them.
      expect(order.indexOf('answer')).toBe(PUTS_PER_SLICE);
      expect(order.filter((step, i) => step === 'put' && order[i - 1] === 'answer')).toHaveLength(3);
      expect(await db.notes.count().exec()).toBe(count);
      expect((await db.notes.findOne('n-00777').exec())?.text).toBe('note 777');
    } finally {
      await db.close();
    }
  });
});
