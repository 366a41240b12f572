import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHearthDatabase, type HearthDatabase } from '@/data/database/create-database';
import { fakeIdb, journalCollection, randomKey, uniqueName } from './fixtures';

/**
 * Issue 13, no long task at start: the replica's collections are created a few per task. Each
 * collection opens an IndexedDB database of its own, so the opens show which turn created it; the
 * turns are the opening's yields, which this test lets go one round at a time.
 */
const collections = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`list${i}`, journalCollection]));

let open: HearthDatabase<typeof collections> | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

describe('opening the replica', () => {
  it('creates a few collections per task, with the browser given a turn between them', async () => {
    const name = uniqueName();
    const opened = new Set<string>();
    const indexedDB = new Proxy(fakeIdb.indexedDB, {
      get(target, property) {
        if (property !== 'open') return Reflect.get(target, property, target) as unknown;
        return (database: string, version?: number) => {
          if (database.includes(name) && database.includes('--list')) opened.add(database);
          return target.open(database, version);
        };
      },
    });
    let waiting: (() => void)[] = [];
    const yieldToMain = () => new Promise<void>((resolve) => waiting.push(resolve));
    const opening = createHearthDatabase({ name, key: randomKey(), collections, indexedDB, IDBKeyRange: fakeIdb.IDBKeyRange, multiInstance: false, yieldToMain });

    // One round: every yield asked for so far returns (the browser's turn is over), and the next
    // group of three (COLLECTIONS_PER_TASK) is created, no more.
    const round = async (expected: number) => {
      await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0), { timeout: 10_000 });
      const release = waiting;
      waiting = [];
      release.forEach((resolve) => resolve());
      await vi.waitFor(() => expect(opened.size).toBe(expected), { timeout: 10_000 });
    };
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(opened.size).toBe(0);
    await round(3);
    await round(6);
    await round(7);
    open = await opening;

    expect(Object.keys(open.collections).sort()).toEqual(Object.keys(collections).sort());
  });
});
