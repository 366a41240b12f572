/**
 * The local replica: RxDB on Dexie (IndexedDB), every collection behind the field-encryption
 * wrapper. Dev-mode and the schema validator are loaded only in development builds
 * (`import.meta.env.DEV` is a compile-time `false` in production, so both imports are removed);
 * ajv is never used (it needs `unsafe-eval`), development validates with z-schema.
 */
import { addRxPlugin, createRxDatabase, removeRxDatabase } from 'rxdb';
import type { MigrationStrategies, RxCollection, RxDatabase, RxJsonSchema, RxStorage } from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { DataKey } from '../crypto/key-vault';
import { DATA_KEY_BYTES, asDataKey } from '../crypto/key-vault';
import { descendingQueriesStorage } from './descending-queries';
import { readManyByRange } from './reads-by-id';
import { writeManyInSlices } from './puts-in-slices';
import { declareUsedIndexesOnly } from './unused-indexes';
import { yieldToMain } from '@/lib/yield-to-main';
import { assertEncryptableSchema, toStorageSchema, wrappedFieldEncryptionStorage } from './encrypted-storage';
import type { Encrypted } from './encrypted-storage';
import { keepNewestStorage, type KeepNewest } from './keep-newest';
import { refusedPullsStorage } from './refused-pulls';

/** RxDB open-core allows at most 13 open collections per JS process (ARCHITECTURE "Known facts"). */
export const MAX_COLLECTIONS = 13;

/** How many collections are created in one task when the database opens (see createHearthDatabase). */
export const COLLECTIONS_PER_TASK = 3;

function inGroups<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}

/** A collection schema as written by features: no `encrypted` (given separately), no attachments. */
export type HearthSchema<T> = Omit<RxJsonSchema<T>, 'encrypted' | 'attachments'>;

declare const documentType: unique symbol;

export interface HearthCollectionDefinition<T, K extends keyof T & string = never> {
  /** The schema RxDB sees: plain types, with the `encrypted` list filled in. */
  readonly schema: RxJsonSchema<T>;
  readonly encrypted: readonly K[];
  readonly migrationStrategies: MigrationStrategies;
  /**
   * Optional: whether `next` may replace the stored document (false: the write is refused as a
   * conflict, see ./keep-newest.ts). It runs above the encryption and sees plain documents.
   */
  readonly keepNewest?: KeepNewest<T>;
  /** Type-level only: the plain document type. */
  readonly [documentType]?: T;
}

export class CollectionDefinitionError extends Error {
  override readonly name = 'CollectionDefinitionError';
}

/**
 * Declares a collection. Curried so the document type is explicit and the encrypted keys inferred:
 * `defineCollection<JournalDoc>()({ schema, encrypted: ['description', 'canvas'] })`.
 * Encrypted fields must be top-level, not the primary key, not indexed; indexed fields must be required.
 */
export function defineCollection<T>() {
  return <const K extends keyof T & string = never>(definition: {
    schema: HearthSchema<T>;
    encrypted: readonly K[];
    migrationStrategies?: MigrationStrategies;
    keepNewest?: KeepNewest<T>;
  }): HearthCollectionDefinition<T, K> => {
    const schema = { ...definition.schema, encrypted: [...definition.encrypted] } as RxJsonSchema<T>;
    const name = schema.title ?? String(schema.primaryKey);
    if (!Number.isInteger(schema.version) || schema.version < 0) {
      throw new CollectionDefinitionError(`${name}: version must be a non-negative integer`);
    }
    assertEncryptableSchema(schema, name);
    toStorageSchema(schema); // throws when an encrypted field is not declared
    const required = new Set<string>((schema.required ?? []) as readonly string[]);
    for (const field of (schema.indexes ?? []).flat()) {
      if (!field.includes('.') && !required.has(field)) {
        throw new CollectionDefinitionError(`${name}: indexed field "${field}" must be required (Dexie)`);
      }
    }
    const migrationStrategies = definition.migrationStrategies ?? {};
    for (let v = 1; v <= schema.version; v++) {
      if (typeof migrationStrategies[v] !== 'function') {
        throw new CollectionDefinitionError(`${name}: missing migration strategy for version ${v}`);
      }
    }
    return { schema, encrypted: definition.encrypted, migrationStrategies, ...(definition.keepNewest ? { keepNewest: definition.keepNewest } : {}) };
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CollectionDefinitions = Record<string, HearthCollectionDefinition<any, any>>;
export type PlainDocumentOf<D> = D extends HearthCollectionDefinition<infer T, infer _K> ? T : never;
/** What IndexedDB holds for a collection's documents: its encrypted fields are ciphertext. */
export type StoredDocumentOf<D> = D extends HearthCollectionDefinition<infer T, infer K> ? Encrypted<T, K> : never;
export type HearthCollections<C extends CollectionDefinitions> = { [N in keyof C]: RxCollection<PlainDocumentOf<C[N]>> };
export type HearthDatabase<C extends CollectionDefinitions> = RxDatabase<HearthCollections<C>>;

export interface HearthStorageOptions {
  /** IndexedDB factory; tests pass fake-indexeddb's. Default: the browser's. */
  readonly indexedDB?: IDBFactory;
  readonly IDBKeyRange?: typeof IDBKeyRange;
}

export interface CreateHearthDatabaseOptions<C extends CollectionDefinitions> extends HearthStorageOptions {
  readonly name: string;
  /** May be a promise: the database opens meanwhile, and each encrypted collection waits for it. */
  readonly key: DataKey | Promise<DataKey>;
  readonly collections: C;
  /** Default true (several tabs). Tests pass false. */
  readonly multiInstance?: boolean;
  /** Development builds only: set false to skip dev-mode and validation (benchmarks). Ignored in production. */
  readonly devMode?: boolean;
  /** Tests: how the opening lets other tasks run between its groups of collections (default `yieldToMain`). */
  readonly yieldToMain?: () => Promise<void>;
}

function baseStorage(options: HearthStorageOptions) {
  return descendingQueriesStorage(
    getRxStorageDexie({
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
      onCreate: (dexie) => {
        declareUsedIndexesOnly(dexie);
        readManyByRange(dexie);
        writeManyInSlices(dexie);
      },
    }),
  );
}

let pluginsAdded = false;
async function addPlugins(devMode: boolean): Promise<boolean> {
  if (!pluginsAdded) {
    addRxPlugin(RxDBMigrationSchemaPlugin);
    pluginsAdded = true;
  }
  if (import.meta.env.DEV && devMode) {
    const { RxDBDevModePlugin, disableWarnings } = await import('rxdb/plugins/dev-mode');
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin); // idempotent in RxDB
    return true;
  }
  return false;
}

export async function createHearthDatabase<C extends CollectionDefinitions>(
  options: CreateHearthDatabaseOptions<C>,
): Promise<HearthDatabase<C>> {
  const names = Object.keys(options.collections);
  if (names.length > MAX_COLLECTIONS) {
    throw new CollectionDefinitionError(`At most ${MAX_COLLECTIONS} collections (RxDB open-core); group small lists into one`);
  }
  const validate = await addPlugins(options.devMode ?? true);

  // Above the encryption: the rules see plain documents (and RxDB's `previous`, the stored revision).
  const rules = Object.fromEntries(
    names.flatMap((name) => {
      const rule = options.collections[name]?.keepNewest;
      return rule ? [[name, rule as KeepNewest]] : [];
    }),
  );
  // Between them: pulled copies refused as conflicts go back to their pull (./refused-pulls.ts).
  let storage: RxStorage<unknown, unknown> = keepNewestStorage(
    refusedPullsStorage(wrappedFieldEncryptionStorage({ storage: baseStorage(options), key: options.key })),
    rules,
  );
  if (import.meta.env.DEV && validate) {
    // Dev-mode demands a validator at the top; it sees plain documents (outside the encryption).
    const { wrappedValidateZSchemaStorage } = await import('rxdb/plugins/validate-z-schema');
    storage = wrappedValidateZSchemaStorage({ storage });
  }

  const db = await createRxDatabase<HearthCollections<C>>({
    name: options.name,
    storage,
    multiInstance: options.multiInstance ?? true,
    eventReduce: true,
    closeDuplicates: true,
  });
  const creator = (name: string) => {
    const definition = options.collections[name] as C[string];
    return [name, { schema: definition.schema, migrationStrategies: definition.migrationStrategies }] as const;
  };
  try {
    // A few collections per task: RxDB creates every storage instance of one call in a single
    // stretch of microtasks, which for all 13 was the longest task of a signed-in start (about 170 ms
    // on a 4x slower phone). Each group starts after a yield and they run side by side; the journal
    // opened offline shows its first card about 5% later for it (docs/decisions.md "The replica's
    // collections, a few per task"). The first group waits one yield too: creating the database
    // (its internal store) is a stretch of its own.
    const groups = inGroups(names, COLLECTIONS_PER_TASK);
    const pause = options.yieldToMain ?? yieldToMain;
    const added = await Promise.allSettled(
      groups.map(async (group, index) => {
        for (let i = 0; i <= index; i++) await pause();
        await db.addCollections(Object.fromEntries(group.map(creator)));
      }),
    );
    // Closed only when no group is still adding.
    const failed = added.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Deletes the replica's IndexedDB data (logout wipe). The key is not needed. */
/**
 * Removes a replica that is not open. The storage is wrapped like an open one, because RxDB
 * re-creates each collection's storage (schemas with encrypted fields included) to remove it; the
 * key is a throwaway: removal clears tables and never reads or writes a document.
 */
export async function removeHearthDatabase(name: string, options: HearthStorageOptions & { multiInstance?: boolean } = {}): Promise<void> {
  const throwaway = asDataKey(crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES)));
  const storage = wrappedFieldEncryptionStorage({ storage: baseStorage(options), key: throwaway });
  await removeRxDatabase(name, storage, options.multiInstance ?? true);
}
