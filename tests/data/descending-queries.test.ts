import { IDBCursor } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MangoQuerySortPart, RxQueryPlan } from 'rxdb';
import { createHearthDatabase, defineCollection, type HearthDatabase } from '@/data/database/create-database';
import { isBackwardWalk } from '@/data/database/descending-queries';
import { fakeIdb, randomKey, uniqueName } from './fixtures';

interface Note {
  id: string;
  sort_key: string;
  status: string;
  text: string;
}

const notes = defineCollection<Note>()({
  schema: {
    title: 'notes',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id: { type: 'string', maxLength: 40 },
      sort_key: { type: 'string', maxLength: 40 },
      status: { type: 'string', maxLength: 10 },
      text: { type: 'string' },
    },
    required: ['id', 'sort_key', 'status', 'text'],
    indexes: ['sort_key'],
  },
  encrypted: ['text'],
});
const collections = { notes };
type Db = HearthDatabase<typeof collections>;

const opened: Db[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

/** 300 notes over 100 minutes (three share each minute), every fifth deleted, every third pending. */
async function seeded(): Promise<Db> {
  const db = await createHearthDatabase({ name: uniqueName(), key: randomKey(), collections, ...fakeIdb, multiInstance: false });
  opened.push(db);
  await db.notes.bulkInsert(
    Array.from({ length: 300 }, (_, i) => ({
      id: `n-${String((i * 7919) % 1000).padStart(4, '0')}`,
      sort_key: `2024-01-01T${String(Math.floor(i / 3 / 60)).padStart(2, '0')}:${String(Math.floor(i / 3) % 60).padStart(2, '0')}`,
      status: i % 3 === 0 ? 'pending' : 'synced',
      text: `note ${i}`,
    })),
  );
  const deleted = await db.notes.find().exec();
  await Promise.all(deleted.filter((_, i) => i % 5 === 0).map((doc) => doc.remove()));
  return db;
}

/** What the query must return, worked out in memory from every live note. */
async function expected(db: Db, keep: (n: Note) => boolean, skip: number, limit: number): Promise<string[]> {
  const all = (await db.notes.find().exec()).map((d) => d.toJSON() as Note);
  return all
    .filter(keep)
    .sort((a, b) => (a.sort_key === b.sort_key ? (a.id < b.id ? 1 : -1) : a.sort_key < b.sort_key ? 1 : -1))
    .slice(skip, skip + limit)
    .map((n) => n.id);
}

describe('newest-first queries walk the index backwards', () => {
  it('read only the page from IndexedDB, not every document', async () => {
    const db = await seeded();
    const steps = vi.spyOn(IDBCursor.prototype, 'continue');
    const page = await db.notes.find({ sort: [{ sort_key: 'desc' }, { id: 'desc' }], limit: 21 }).exec();
    expect(page).toHaveLength(21);
    // RxDB's own plan reads all 240 live notes (and sorts them) for the same 21.
    expect(steps.mock.calls.length).toBeLessThan(30);
    expect(page.map((d) => d.id)).toEqual(await expected(db, () => true, 0, 21));
    expect(page[0]?.text).toMatch(/^note \d+$/);
  });

  it('give exactly the order and documents RxDB would: ties by id, ranges, skip, other filters, deleted ones left out', async () => {
    const db = await seeded();
    const sort: MangoQuerySortPart<Note>[] = [{ sort_key: 'desc' }, { id: 'desc' }];
    const range = { sort_key: { $gte: '2024-01-01T00:20', $lte: '2024-01-01T01:05' } };
    const cases = [
      { query: db.notes.find({ sort, limit: 10, skip: 7 }), keep: () => true, skip: 7, limit: 10 },
      { query: db.notes.find({ selector: range, sort, limit: 50 }), keep: (n: Note) => n.sort_key >= '2024-01-01T00:20' && n.sort_key <= '2024-01-01T01:05', skip: 0, limit: 50 },
      { query: db.notes.find({ selector: { status: 'pending' }, sort, limit: 15 }), keep: (n: Note) => n.status === 'pending', skip: 0, limit: 15 },
      { query: db.notes.find({ sort }), keep: () => true, skip: 0, limit: Infinity },
      { query: db.notes.find({ selector: { sort_key: { $gte: '2030-01-01' } }, sort, limit: 5 }), keep: () => false, skip: 0, limit: 5 },
      // Exclusive ends (`$lt`, `$gt`): the calendar's past pages.
      { query: db.notes.find({ selector: { sort_key: { $lt: '2024-01-01T01:00' } }, sort, limit: 12 }), keep: (n: Note) => n.sort_key < '2024-01-01T01:00', skip: 0, limit: 12 },
      { query: db.notes.find({ selector: { sort_key: { $gt: '2024-01-01T00:20', $lt: '2024-01-01T00:40' } }, sort }), keep: (n: Note) => n.sort_key > '2024-01-01T00:20' && n.sort_key < '2024-01-01T00:40', skip: 0, limit: Infinity },
    ];
    for (const { query, keep, skip, limit } of cases) {
      expect((await query.exec()).map((d) => d.id)).toEqual(await expected(db, keep, skip, limit));
    }
  });

  it('stay live: a newer note, an edit and a removal reach the page', async () => {
    const db = await seeded();
    const query = db.notes.find({ sort: [{ sort_key: 'desc' }, { id: 'desc' }], limit: 5 });
    const seen: string[][] = [];
    const sub = query.$.subscribe((docs) => seen.push(docs.map((d) => d.id)));
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0));
    await db.notes.insert({ id: 'n-new', sort_key: '2025-01-01T00:00', status: 'synced', text: 'newest' });
    await vi.waitFor(() => expect(seen[seen.length - 1]?.[0]).toBe('n-new'));
    const second = seen[seen.length - 1]?.[1] as string;
    await (await db.notes.findOne(second).exec())?.remove();
    await vi.waitFor(() => expect(seen[seen.length - 1]).not.toContain(second));
    expect(seen[seen.length - 1]).toEqual(await expected(db, () => true, 0, 5));
    sub.unsubscribe();
  });

  it('leave every other sort to RxDB', () => {
    const plan: RxQueryPlan = {
      index: ['_deleted', 'sort_key', 'id'],
      // RxDB's own plans key _deleted as a boolean; its type says otherwise.
      startKeys: [false, '2024', -Infinity] as unknown as RxQueryPlan['startKeys'],
      endKeys: [false, '2025', '\uffff'] as unknown as RxQueryPlan['endKeys'],
      inclusiveStart: true,
      inclusiveEnd: true,
      sortSatisfiedByIndex: false,
      selectorSatisfiedByIndex: true,
    };
    expect(isBackwardWalk([{ sort_key: 'desc' }, { id: 'desc' }], plan)).toBe(true);
    expect(isBackwardWalk([{ sort_key: 'desc' }, { id: 'desc' }], { ...plan, inclusiveStart: false, inclusiveEnd: false })).toBe(true);
    // RxDB adds the primary key ascending when a sort lacks it: a backward walk would reverse ties.
    expect(isBackwardWalk([{ sort_key: 'desc' }, { id: 'asc' }], plan)).toBe(false);
    expect(isBackwardWalk([{ sort_key: 'asc' }, { id: 'asc' }], { ...plan, sortSatisfiedByIndex: true })).toBe(false);
    expect(isBackwardWalk([{ status: 'desc' }, { id: 'desc' }], plan)).toBe(false);
    // A leading index field the selector does not pin to one value would interleave.
    expect(isBackwardWalk([{ id: 'desc' }], plan)).toBe(false);
    expect(isBackwardWalk([{ sort_key: 'desc' }, { id: 'desc' }], { ...plan, endKeys: [true, '2025', '\uffff'] as unknown as RxQueryPlan['endKeys'] })).toBe(false);
  });
});
