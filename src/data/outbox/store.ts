import type { OutboxRecord } from './types';

/**
 * The outbox's IndexedDB store (`hearth-outbox`, object store `entries`), used by the page and the
 * service worker alike. Each read-modify-write is one readwrite transaction, so two contexts that
 * race to claim an entry cannot both win.
 */
export const OUTBOX_DATABASE = 'hearth-outbox';
const STORE = 'entries';
const VERSION = 1;

export interface OutboxStoreOptions {
  readonly indexedDB?: IDBFactory;
  readonly databaseName?: string;
}

const connections = new Map<string, Promise<IDBDatabase>>();

function factoryOf(options: OutboxStoreOptions): IDBFactory {
  const factory = options.indexedDB ?? globalThis.indexedDB;
  if (!factory) throw new Error('IndexedDB is not available');
  return factory;
}

const factoryIds = new WeakMap<IDBFactory, number>();
let nextFactoryId = 1;
function connectionKey(factory: IDBFactory, name: string): string {
  let id = factoryIds.get(factory);
  if (!id) {
    id = nextFactoryId++;
    factoryIds.set(factory, id);
  }
  return `${id}:${name}`;
}

function open(options: OutboxStoreOptions): Promise<IDBDatabase> {
  const factory = factoryOf(options);
  const name = options.databaseName ?? OUTBOX_DATABASE;
  const key = connectionKey(factory, name);
  let connection = connections.get(key);
  if (!connection) {
    connection = new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(name, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
      };
      request.onsuccess = () => {
        const db = request.result;
        // A wipe elsewhere deletes the database: let it, and reopen next time.
        db.onversionchange = () => {
          db.close();
          connections.delete(key);
        };
        db.onclose = () => connections.delete(key);
        resolve(db);
      };
      request.onerror = () => reject(request.error ?? new Error('Cannot open the outbox'));
      request.onblocked = () => reject(new Error('The outbox database is blocked'));
    });
    connections.set(key, connection);
    connection.catch(() => connections.delete(key));
  }
  return connection;
}

async function transact<T>(
  options: OutboxStoreOptions,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore, done: (value: T) => void) => void,
): Promise<T> {
  const db = await open(options);
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    let result!: T;
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error ?? new Error('Outbox transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('Outbox transaction aborted'));
    work(tx.objectStore(STORE), (value) => {
      result = value;
    });
  });
}

export function addRecord(options: OutboxStoreOptions, record: OutboxRecord): Promise<void> {
  return transact<void>(options, 'readwrite', (store) => {
    store.add(record);
  });
}

export function getRecord(options: OutboxStoreOptions, id: string): Promise<OutboxRecord | undefined> {
  return transact<OutboxRecord | undefined>(options, 'readonly', (store, done) => {
    const request = store.get(id);
    request.onsuccess = () => done(request.result as OutboxRecord | undefined);
  });
}

/** Every entry, oldest first. */
export async function allRecords(options: OutboxStoreOptions): Promise<OutboxRecord[]> {
  const records = await transact<OutboxRecord[]>(options, 'readonly', (store, done) => {
    const request = store.getAll();
    request.onsuccess = () => done(request.result as OutboxRecord[]);
  });
  return records.sort((a, b) => a.seq - b.seq);
}

/**
 * Atomic read-modify-write of one entry: `change` returns the new record, `null` to leave it, or
 * 'delete'. Resolves to the record as written (or null when left alone / absent / deleted).
 */
export function updateRecord(
  options: OutboxStoreOptions,
  id: string,
  change: (record: OutboxRecord) => OutboxRecord | null | 'delete',
): Promise<OutboxRecord | null> {
  return transact<OutboxRecord | null>(options, 'readwrite', (store, done) => {
    done(null);
    const request = store.get(id);
    request.onsuccess = () => {
      const current = request.result as OutboxRecord | undefined;
      if (!current) return;
      const next = change(current);
      if (next === 'delete') store.delete(id);
      else if (next) {
        store.put(next);
        done(next);
      }
    };
  });
}

export function deleteRecords(options: OutboxStoreOptions, ids: readonly string[]): Promise<void> {
  return transact<void>(options, 'readwrite', (store) => {
    for (const id of ids) store.delete(id);
  });
}

/** Logout: every entry and then the database itself. */
export async function destroyOutboxStore(options: OutboxStoreOptions = {}): Promise<void> {
  const factory = factoryOf(options);
  const name = options.databaseName ?? OUTBOX_DATABASE;
  await transact<void>(options, 'readwrite', (store) => {
    store.clear();
  }).catch(() => undefined);
  const key = connectionKey(factory, name);
  const connection = connections.get(key);
  connections.delete(key);
  if (connection) (await connection.catch(() => null))?.close();
  await new Promise<void>((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('Cannot delete the outbox'));
    // Entries are already cleared; another context's open connection only delays file removal.
    request.onblocked = () => resolve();
  });
}
