/**
 * Only the IndexedDB indexes a query can use (issue 13, the initial sync in the browser).
 *
 * RxDB's Dexie storage declares on every documents table, besides the schema's indexes (which RxDB
 * has already prefixed with `_deleted`, and completed with `[_meta.lwt+id]` for the changes since
 * a checkpoint), two more: `[_deleted+<primary key>]` and `_meta.lwt`. Queries only ever walk the
 * schema's indexes (RxDB's query planner and ./descending-queries.ts take `schema.indexes`), and
 * `_meta.lwt` alone serves only RxDB's cleanup plugin, which Hearth does not add. Every index is a
 * second write for every put: measured in Chromium 150 here, 5,000 puts of 500 B took about 750 ms
 * with the calendar's five secondary indexes, 510-570 ms with three, 250 ms with none.
 *
 * So the documents table is declared without them: `_meta.lwt` always, and `[_deleted+<primary>]`
 * when the schema has indexes of its own (a schema with none gets exactly that one as its query
 * index, and keeps it). A replica made before this keeps its indexes: Dexie opens a database whose
 * stored indexes are more than declared as it is (only a missing one is an upgrade), so nothing is
 * migrated and IndexedDB simply keeps them up to date there.
 */
import type { Dexie } from 'dexie';
import { DEXIE_DOCS_TABLE_NAME } from 'rxdb/plugins/storage-dexie';

/** The documents table's index list (Dexie's `stores` syntax) without the indexes no query uses. */
export function withoutUnusedIndexes(spec: string): string {
  const [primary, ...indexes] = spec.split(',').map((part) => part.trim());
  const byPrimary = `[_deleted+${primary}]`;
  const ownIndexes = indexes.some((index) => index.startsWith('[_deleted+') && index !== byPrimary);
  const kept = indexes.filter((index) => index !== '_meta.lwt' && !(ownIndexes && index === byPrimary));
  return [primary, ...kept].join(', ');
}

/** RxDB's `onCreate` hook: the documents table is declared with the indexes queries use. */
export function declareUsedIndexesOnly(dexie: Dexie): void {
  const version = dexie.version.bind(dexie);
  dexie.version = (versionNumber: number) => {
    const declared = version(versionNumber);
    const stores = declared.stores.bind(declared);
    declared.stores = (schema) => {
      const docs = schema[DEXIE_DOCS_TABLE_NAME];
      return stores(typeof docs === 'string' ? { ...schema, [DEXIE_DOCS_TABLE_NAME]: withoutUnusedIndexes(docs) } : schema);
    };
    return declared;
  };
}
