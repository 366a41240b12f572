/**
 * Reads of many ids (src/data/database/reads-by-id.ts, a Dexie middleware): the stored keys in one
 * request, then a `get` only for the ids that are stored, for RxDB's reads by id and for the check
 * its writes make. The answer must be exactly Dexie's own, whichever path runs.
 */
import { IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHearthDatabase, type HearthDatabase } from '@/data/database/create-database';
import { KEYS_PER_ID, MANY_IDS } from '@/data/database/reads-by-id';
import { fakeIdb, notesCollection, randomKey, uniqueName } from './fixtures';

const collections = { notes: notesCollection };
type Db = HearthDatabase<typeof collections>;

const opened: Db[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

const idOf = (i: number) => `n-${String(i).padStart(5, '0')}`;

/** `count` notes with even numbers (n-00000, n-00002, ...), every seventh of them deleted. */
async function seeded(count: number): Promise<{ db: Db; deleted: Set<string> }> {
  const db = await createHearthDatabase({ name: uniqueName(), key: randomKey(), collections, ...fakeIdb, multiInstance: false });
  opened.push(db);
  await db.notes.bulkInsert(Array.from({ length: count }, (_, i) => ({ id: idOf(i * 2), text: `note ${i * 2}` })));
  const deleted = new Set(Array.from({ length: Math.ceil(count / 7) }, (_, i) => idOf(i * 14)));
  await db.notes.bulkRemove([...deleted]);
  return { db, deleted };
}

/** What the storage must answer: the stored notes among `ids`, in that order, deleted ones only when asked. */
function expected(ids: string[], stored: number, deleted: Set<string>, withDeleted: boolean): { id: string; text: string; deleted: boolean }[] {
  return ids
    .filter((id) => Number(id.slice(2)) % 2 === 0 && Number(id.slice(2)) < stored * 2)
    .filter((id) => withDeleted || !deleted.has(id))
    .map((id) => ({ id, text: `note ${Number(id.slice(2))}`, deleted: deleted.has(id) }));
}

async function read(db: Db, ids: string[], withDeleted: boolean) {
  const found = await db.notes.storageInstance.findDocumentsById(ids, withDeleted);
  return found.map((doc) => ({ id: doc.id, text: doc.text, deleted: doc._deleted }));
}

describe('reads of many ids', () => {
  it('get only the ids that are stored, and answer as Dexie would: order asked, absent ids left out, deleted ones only when asked', async () => {
    const { db, deleted } = await seeded(300);
    // 200 ids, every other one stored (odd numbers never are), in no particular order.
    const ids = Array.from({ length: 200 }, (_, i) => idOf((i * 37) % 200));
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    expect(await read(db, ids, false)).toEqual(expected(ids, 300, deleted, false));
    expect(gets).toHaveBeenCalledTimes(100); // the stored ones only
    expect(await read(db, ids, true)).toEqual(expected(ids, 300, deleted, true));
  });

  it('ask nothing per id when none of them is stored (a first sync)', async () => {
    const { db } = await seeded(300);
    const ids = Array.from({ length: 100 }, (_, i) => idOf(i * 2 + 1));
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    expect(await read(db, ids, true)).toEqual([]);
    expect(gets).not.toHaveBeenCalled();
  });

  it('read per id when the range holds many more stored keys than ids, with the same answer', async () => {
    const stored = MANY_IDS * KEYS_PER_ID + 50;
    const { db, deleted } = await seeded(stored);
    // MANY_IDS ids spread over the whole store: its every key lies between the first and the last.
    const ids = Array.from({ length: MANY_IDS }, (_, i) => idOf(Math.floor((i * (stored * 2 - 1)) / (MANY_IDS - 1))));
    const getAllKeys = vi.spyOn(IDBObjectStore.prototype, 'getAllKeys');
    expect(await read(db, ids, true)).toEqual(expected(ids, stored, deleted, true));
    expect(getAllKeys).toHaveBeenCalledTimes(1);
    expect(await read(db, ids, false)).toEqual(expected(ids, stored, deleted, false));
  });

  it('leave a few ids to Dexie', async () => {
    const { db, deleted } = await seeded(50);
    const ids = [idOf(98), idOf(3), idOf(14), idOf(0)];
    const getAllKeys = vi.spyOn(IDBObjectStore.prototype, 'getAllKeys');
    expect(await read(db, ids, true)).toEqual(expected(ids, 50, deleted, true));
    expect(await read(db, ids, false)).toEqual(expected(ids, 50, deleted, false));
    expect(getAllKeys).not.toHaveBeenCalled();
  });

  it('a write of many new documents asks nothing per id (the storage’s check of what is stored), and a write over stored ones still finds them', async () => {
    const { db } = await seeded(100);
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get');
    await db.notes.bulkInsert(Array.from({ length: 100 }, (_, i) => ({ id: idOf(i * 2 + 1), text: `new ${i}` })));
    expect(gets).not.toHaveBeenCalled();
    // Over stored documents the check reads each one: a conflict is still a conflict, an upsert an update.
    const again = await db.notes.bulkInsert(Array.from({ length: 40 }, (_, i) => ({ id: idOf(i * 2 + 1), text: 'twice' })));
    expect(again.error).toHaveLength(40);
    expect(again.error.every((e) => e.status === 409)).toBe(true);
    await db.notes.bulkUpsert(Array.from({ length: 40 }, (_, i) => ({ id: idOf(i * 2 + 1), text: `updated ${i}` })));
    expect(gets.mock.calls.length).toBeGreaterThanOrEqual(80);
    expect((await db.notes.findOne(idOf(79)).exec())?.text).toBe('updated 39');
    expect(await db.notes.count().exec()).toBe(100 - Math.ceil(100 / 7) + 100);
  });

  it('come back decrypted through the collection', async () => {
    const { db, deleted } = await seeded(120);
    const ids = Array.from({ length: 60 }, (_, i) => idOf(i * 4));
    const found = await db.notes.findByIds(ids).exec();
    expect([...found.values()].map((doc) => doc.text).sort()).toEqual(expected(ids, 120, deleted, false).map((n) => n.text).sort());
  });
});
