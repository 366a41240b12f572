/**
 * Documents tables declare only the indexes a query can use (src/data/database/unused-indexes.ts),
 * and a replica made with RxDB's full list still opens, writes and answers the same queries.
 */
import Dexie from 'dexie';
import { getChangedDocumentsSince } from 'rxdb';
import { afterEach, describe, expect, it } from 'vitest';
import { createHearthDatabase } from '@/data/database/create-database';
import { withoutUnusedIndexes } from '@/data/database/unused-indexes';
import { fakeIdb, journalCollection, notesCollection, randomKey, uniqueName, type JournalDoc } from './fixtures';

const collections = { journal: journalCollection, notes: notesCollection };
/** What RxDB's Dexie storage declares for the fixtures' journal (schema indexes `date`, `[status+date]`). */
const FULL_JOURNAL = 'id, [_deleted+id], [_deleted+date+id], [_deleted+status+date+id], [_meta.lwt+id], _meta.lwt';
const dexieName = (database: string, collection: string) => `rxdb-dexie-${database}--0--${collection}`;

function storedIndexes(name: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const request = fakeIdb.indexedDB.open(name);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const names = [...db.transaction('docs').objectStore('docs').indexNames].sort();
      db.close();
      resolve(names);
    };
  });
}

const doc = (n: number, status: JournalDoc['status'] = 'synced'): JournalDoc => ({
  id: `e${String(n).padStart(3, '0')}`,
  date: `2026-01-${String(n).padStart(2, '0')}`,
  status,
  description: `entry ${n}`,
  shared_with: [],
});

let open: { remove(): Promise<unknown> } | null = null;
afterEach(async () => {
  await open?.remove();
  open = null;
});

describe('indexes of the documents tables', () => {
  it('drops `_meta.lwt` always, and `[_deleted+<primary>]` where the schema has indexes of its own', () => {
    expect(withoutUnusedIndexes(FULL_JOURNAL)).toBe('id, [_deleted+date+id], [_deleted+status+date+id], [_meta.lwt+id]');
    // A schema without indexes queries by `[_deleted+id]`: it stays.
    expect(withoutUnusedIndexes('id, [_deleted+id], [_meta.lwt+id], _meta.lwt')).toBe('id, [_deleted+id], [_meta.lwt+id]');
  });

  it('a new replica stores only those, and its queries and the changes since a checkpoint work', async () => {
    const name = uniqueName('indexes');
    const db = await createHearthDatabase({ ...fakeIdb, name, key: randomKey(), collections, multiInstance: false });
    open = db;
    expect(await storedIndexes(dexieName(name, 'journal'))).toEqual(['[_deleted+date+id]', '[_deleted+status+date+id]', '[_meta.lwt+id]']);
    expect(await storedIndexes(dexieName(name, 'notes'))).toEqual(['[_deleted+id]', '[_meta.lwt+id]']);

    await db.journal!.bulkInsert([doc(1), doc(2, 'pending'), doc(3), doc(4, 'pending')]);
    await db.notes!.insert({ id: 'n1', text: 'hello' });
    const pending = await db.journal!.find({ selector: { status: 'pending' }, sort: [{ date: 'desc' }] }).exec();
    expect(pending.map((d) => d.id)).toEqual(['e004', 'e002']);
    expect((await db.notes!.find().exec()).map((d) => d.text)).toEqual(['hello']);
    const changed = await getChangedDocumentsSince(db.journal!.storageInstance, 10);
    expect(changed.documents.map((d) => d.id)).toEqual(['e001', 'e002', 'e003', 'e004']);
  });

  it('a replica made with every index opens as it is, and is written and queried as before', async () => {
    const name = uniqueName('indexes-old');
    // The tables as RxDB's Dexie storage made them before: every index.
    const old = new Dexie(dexieName(name, 'journal'), fakeIdb);
    old.version(1).stores({ docs: FULL_JOURNAL, changes: '++sequence, id', attachments: 'id' });
    await old.open();
    old.close();

    const db = await createHearthDatabase({ ...fakeIdb, name, key: randomKey(), collections, multiInstance: false });
    open = db;
    await db.journal!.bulkInsert([doc(1, 'pending'), doc(2)]);
    await (await db.journal!.findOne('e002').exec())!.incrementalPatch({ status: 'pending' });
    const pending = await db.journal!.find({ selector: { status: 'pending' }, sort: [{ date: 'asc' }] }).exec();
    expect(pending.map((d) => d.id)).toEqual(['e001', 'e002']);
    // Nothing was migrated: the stored indexes are still all there.
    expect(await storedIndexes(dexieName(name, 'journal'))).toEqual(['[_deleted+date+id]', '[_deleted+id]', '[_deleted+status+date+id]', '[_meta.lwt+id]', '_meta.lwt']);
  });
});
