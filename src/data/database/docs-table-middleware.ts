import type { DBCore, DBCoreTable, Middleware } from 'dexie';
import { DEXIE_DOCS_TABLE_NAME } from 'rxdb/plugins/storage-dexie';

/**
 * A Dexie middleware that changes only RxDB's documents table: RxDB's Dexie storage creates one
 * Dexie database per collection, with that table and a few of its own, and its `onCreate` setting
 * lets us add middlewares before each database opens (create-database.ts).
 */
export function docsTableMiddleware(name: string, change: (table: DBCoreTable) => Partial<DBCoreTable>): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name,
    create: (down) => ({
      ...down,
      table(tableName) {
        const table = down.table(tableName);
        return tableName === DEXIE_DOCS_TABLE_NAME ? { ...table, ...change(table) } : table;
      },
    }),
  };
}
