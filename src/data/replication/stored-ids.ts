/**
 * The ids of a collection's live documents that start with a prefix, without reading the documents:
 * the file sweep asks which files are cached, and a cached photo is a large record (reading them
 * all to learn their ids would read every photo the device holds, after every pull).
 *
 * RxDB's Dexie storage keeps each collection's documents in one table with a `[_deleted+<primary
 * key>]` index (booleans stored as '0'/'1'); src/data/database/unused-indexes.ts keeps it for a
 * collection without indexes of its own, such as `files`. The index's keys are read, not its
 * records. A storage without that table or index (never Hearth's) falls back to RxDB's query.
 */
import type { DexieStorageInternals, RxCollection } from 'rxdb';

type Table = { where(index: string): { between(lower: unknown, upper: unknown, includeLower: boolean, includeUpper: boolean): { primaryKeys(): Promise<unknown[]> } } };

export async function liveIdsStartingWith(collection: RxCollection, prefix: string): Promise<string[]> {
  const primary = collection.schema.primaryPath as string;
  const upper = `${prefix}\uffff`;
  const internals = (await Promise.resolve(collection.storageInstance.internals as DexieStorageInternals).catch(() => undefined)) as { dexieTable?: Table } | undefined;
  const table = internals?.dexieTable;
  if (table) {
    try {
      const keys = await table.where(`[_deleted+${primary}]`).between(['0', prefix], ['0', upper], true, true).primaryKeys();
      return keys.filter((key): key is string => typeof key === 'string');
    } catch {
      // No such index: RxDB's query below.
    }
  }
  const docs = await collection.find({ selector: { [primary]: { $gte: prefix, $lt: upper } } }).exec();
  return docs.map((doc) => doc.primary as string);
}
