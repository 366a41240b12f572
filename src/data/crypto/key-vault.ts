/**
 * The device's data key (ARCHITECTURE "At rest", SPEC §9 "Local data").
 *
 * A random 32-byte AES key encrypts the replica. It is stored wrapped (RSA-OAEP, SHA-256) by a
 * non-extractable 4096-bit RSA key pair generated with WebCrypto; the CryptoKey objects and the
 * wrapped key live in a small IndexedDB database (`hearth-keys`). Where WebCrypto or that store
 * fails, the vault falls back silently (SPEC §9) to the unwrapped key, in the same store or in
 * localStorage, and says so through `mode` so /dev can show it.
 */
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';

declare const dataKeyBrand: unique symbol;
/** The raw 32-byte data key. Branded so it is never confused with other bytes. */
export type DataKey = Uint8Array<ArrayBuffer> & { readonly [dataKeyBrand]: 'HearthDataKey' };

export const DATA_KEY_BYTES = 32;
export const KEY_DATABASE_NAME = 'hearth-keys';
const OBJECT_STORE = 'keys';
const RECORD_ID = 'data-key';
const LOCAL_STORAGE_ITEM = 'hearth-keys:data-key';
const RSA_MODULUS_BITS = 4096;

export type KeyVaultMode = 'wrapped' | 'fallback';

export interface DataKeyResult {
  readonly key: DataKey;
  readonly mode: KeyVaultMode;
  /** True when this call generated the key (first start, or after destroyKeys). */
  readonly created: boolean;
}

export type KeyVaultErrorCode = 'key-unreadable' | 'no-storage' | 'invalid-key' | 'wipe-failed';

/** The stored key exists but cannot be read, or nothing can hold a key at all. */
export class KeyVaultError extends Error {
  override readonly name = 'KeyVaultError';
  constructor(
    readonly code: KeyVaultErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Minimal record store the vault needs; the IndexedDB one is the default, tests may inject others. */
export interface KeyRecordStore {
  get(id: string): Promise<unknown>;
  /** Writes only if `id` is absent; resolves false when a record already exists. */
  add(id: string, value: unknown): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Removes the whole store (logout wipe). */
  destroy(): Promise<void>;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface KeyVaultOptions {
  /** IndexedDB factory (tests pass fake-indexeddb). Default: globalThis.indexedDB. */
  readonly indexedDB?: IDBFactory | null;
  /** Overrides the IndexedDB store entirely (tests inject failing stores). */
  readonly store?: KeyRecordStore | null;
  /** Default: globalThis.crypto.subtle. `null` forces the fallback. */
  readonly subtle?: SubtleCrypto | null;
  /** Default: globalThis.localStorage when available. */
  readonly localStorage?: StorageLike | null;
  readonly databaseName?: string;
  /** RSA modulus; 4096 unless a test asks for less. */
  readonly modulusLength?: number;
}

interface WrappedRecord {
  readonly v: 1;
  readonly mode: 'wrapped';
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  readonly wrappedKey: ArrayBuffer;
}
interface FallbackRecord {
  readonly v: 1;
  readonly mode: 'fallback';
  readonly rawKey: Uint8Array;
}

export function asDataKey(bytes: Uint8Array): DataKey {
  if (!(bytes instanceof Uint8Array) || bytes.length !== DATA_KEY_BYTES) {
    throw new KeyVaultError('invalid-key', `A data key is ${DATA_KEY_BYTES} bytes`);
  }
  const copy = new Uint8Array(DATA_KEY_BYTES);
  copy.set(bytes);
  return copy as DataKey;
}

function newRawKey(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES));
}

/**
 * Keys this page has read, by IndexedDB factory and key database (the default store only). Reading
 * the wrapped key is an RSA-4096 decryption, about 6 ms of main thread in Chromium (24 ms on a phone
 * 4x slower), and a start asked for the key several times: the replica's open, the outbox's counts
 * and its replay. The raw key is in this page's memory anyway while the replica is open; the
 * logout wipe (destroyKeys) forgets it before it deletes the store.
 */
const keysRead = new WeakMap<object, Map<string, Promise<DataKeyResult>>>();

function memoFor(options: KeyVaultOptions): { readonly map: Map<string, Promise<DataKeyResult>>; readonly name: string } | null {
  if (options.store !== undefined || options.subtle !== undefined || options.localStorage !== undefined) return null;
  const factory = options.indexedDB === undefined ? (globalThis.indexedDB ?? null) : options.indexedDB;
  if (!factory) return null;
  let map = keysRead.get(factory);
  if (!map) keysRead.set(factory, (map = new Map()));
  return { map, name: options.databaseName ?? KEY_DATABASE_NAME };
}

/** Returns this device's data key, creating (and storing) it on first use. */
export function getOrCreateDataKey(options: KeyVaultOptions = {}): Promise<DataKeyResult> {
  const memo = memoFor(options);
  if (!memo) return readOrCreate(options);
  const known = memo.map.get(memo.name);
  if (known) return known.then((result) => ({ ...result, key: asDataKey(result.key), created: false }));
  const reading = readOrCreate(options);
  memo.map.set(memo.name, reading);
  // A failure is not remembered: the next call tries again.
  reading.catch(() => memo.map.get(memo.name) === reading && memo.map.delete(memo.name));
  return reading.then((result) => ({ ...result, key: asDataKey(result.key) }));
}

async function readOrCreate(options: KeyVaultOptions): Promise<DataKeyResult> {
  const store = resolveStore(options);
  const local = resolveLocalStorage(options);
  const subtle = options.subtle === undefined ? (globalThis.crypto?.subtle ?? null) : options.subtle;

  // 1. An existing key, wherever it is.
  const existing = await readExisting(store, local, subtle);
  if (existing) return existing;

  // 2. A new key, wrapped where possible.
  const raw = newRawKey();
  if (store && subtle) {
    try {
      const record = await createWrappedRecord(subtle, raw, options.modulusLength ?? RSA_MODULUS_BITS);
      if (!(await store.add(RECORD_ID, record))) {
        // Another tab got there first: use its key.
        const winner = await readExisting(store, local, subtle);
        if (winner) return winner;
      } else {
        // Prove the store really holds working CryptoKeys (some engines cannot clone them).
        const stored = await store.get(RECORD_ID);
        const roundTrip = isWrappedRecord(stored) ? await unwrap(subtle, stored) : null;
        if (roundTrip && equalBytes(roundTrip, raw)) return { key: asDataKey(raw), mode: 'wrapped', created: true };
        await store.delete(RECORD_ID);
      }
    } catch {
      // Silent fallback (SPEC §9); best effort to leave no half-written record behind.
      await store.delete(RECORD_ID).catch(() => undefined);
    }
  }

  // 3. Fallback: the unwrapped key in the same store, else localStorage.
  if (store) {
    try {
      const record: FallbackRecord = { v: 1, mode: 'fallback', rawKey: raw };
      if (await store.add(RECORD_ID, record)) return { key: asDataKey(raw), mode: 'fallback', created: true };
      const winner = await readExisting(store, local, subtle);
      if (winner) return winner;
    } catch {
      // fall through to localStorage
    }
  }
  if (local) {
    try {
      const current = local.getItem(LOCAL_STORAGE_ITEM);
      if (current) {
        const winner = decodeLocal(current);
        if (winner) return { key: winner, mode: 'fallback', created: false };
      }
      local.setItem(LOCAL_STORAGE_ITEM, JSON.stringify({ v: 1, mode: 'fallback', rawKey: bytesToBase64(raw) }));
      return { key: asDataKey(raw), mode: 'fallback', created: true };
    } catch {
      // nothing left
    }
  }
  throw new KeyVaultError('no-storage', 'No storage can hold the data key on this device');
}

/**
 * Deletes every copy of the key (logout wipe). The replica becomes unreadable by design.
 * Throws `wipe-failed` only if a key is still readable afterwards.
 */
export async function destroyKeys(options: KeyVaultOptions = {}): Promise<void> {
  const memo = memoFor(options);
  // A read still in flight (a start asks for the key before the replica opens: follow-session.ts)
  // ends first, so a key it is making is destroyed too, not written after the store has gone.
  const reading = memo?.map.get(memo.name);
  if (reading) await reading.catch(() => undefined);
  // Forgotten before and after: a read that started while the store was going cannot stay remembered.
  memo?.map.delete(memo.name);
  const store = resolveStore(options);
  const local = resolveLocalStorage(options);
  const failures: unknown[] = [];
  if (store) await store.destroy().catch((error: unknown) => failures.push(error));
  memo?.map.delete(memo.name);
  if (local) {
    try {
      local.removeItem(LOCAL_STORAGE_ITEM);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 0) return;
  const left = await readExisting(store, local, null).catch((error: unknown) =>
    error instanceof KeyVaultError && error.code === 'key-unreadable' ? 'present' : null,
  );
  if (left) throw new KeyVaultError('wipe-failed', 'The data key could not be deleted', { cause: failures[0] });
}

async function readExisting(
  store: KeyRecordStore | null,
  local: StorageLike | null,
  subtle: SubtleCrypto | null,
): Promise<DataKeyResult | null> {
  let record: unknown;
  if (store) {
    try {
      record = await store.get(RECORD_ID);
    } catch {
      record = undefined;
    }
  }
  if (isWrappedRecord(record)) {
    if (!subtle) throw new KeyVaultError('key-unreadable', 'The data key is wrapped but WebCrypto is unavailable');
    let raw: Uint8Array | null;
    try {
      raw = await unwrap(subtle, record);
    } catch (cause) {
      throw new KeyVaultError('key-unreadable', 'The wrapped data key cannot be unwrapped', { cause });
    }
    if (!raw) throw new KeyVaultError('key-unreadable', 'The wrapped data key has the wrong length');
    return { key: asDataKey(raw), mode: 'wrapped', created: false };
  }
  if (isFallbackRecord(record)) return { key: asDataKey(record.rawKey), mode: 'fallback', created: false };
  if (record !== undefined && record !== null) {
    throw new KeyVaultError('key-unreadable', 'The stored data key record is not recognised');
  }
  if (local) {
    let item: string | null = null;
    try {
      item = local.getItem(LOCAL_STORAGE_ITEM);
    } catch {
      item = null;
    }
    if (item) {
      const key = decodeLocal(item);
      if (!key) throw new KeyVaultError('key-unreadable', 'The stored data key is not recognised');
      return { key, mode: 'fallback', created: false };
    }
  }
  return null;
}

async function createWrappedRecord(subtle: SubtleCrypto, raw: Uint8Array<ArrayBuffer>, modulusLength: number): Promise<WrappedRecord> {
  const pair = await subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    false, // the private key never leaves WebCrypto
    ['encrypt', 'decrypt'],
  );
  if (pair.privateKey.extractable) throw new Error('WebCrypto returned an extractable private key');
  const wrappedKey = await subtle.encrypt({ name: 'RSA-OAEP' }, pair.publicKey, raw);
  return { v: 1, mode: 'wrapped', privateKey: pair.privateKey, publicKey: pair.publicKey, wrappedKey };
}

async function unwrap(subtle: SubtleCrypto, record: WrappedRecord): Promise<Uint8Array | null> {
  const raw = new Uint8Array(await subtle.decrypt({ name: 'RSA-OAEP' }, record.privateKey, record.wrappedKey));
  return raw.length === DATA_KEY_BYTES ? raw : null;
}

function isWrappedRecord(value: unknown): value is WrappedRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<WrappedRecord>;
  return (
    r.v === 1 &&
    r.mode === 'wrapped' &&
    typeof CryptoKey !== 'undefined' &&
    r.privateKey instanceof CryptoKey &&
    r.wrappedKey instanceof ArrayBuffer
  );
}

function isFallbackRecord(value: unknown): value is FallbackRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<FallbackRecord>;
  return r.v === 1 && r.mode === 'fallback' && r.rawKey instanceof Uint8Array && r.rawKey.length === DATA_KEY_BYTES;
}

function decodeLocal(item: string): DataKey | null {
  try {
    const parsed = JSON.parse(item) as { v?: unknown; mode?: unknown; rawKey?: unknown };
    if (parsed.v !== 1 || parsed.mode !== 'fallback' || typeof parsed.rawKey !== 'string') return null;
    const bytes = base64ToBytes(parsed.rawKey);
    return bytes.length === DATA_KEY_BYTES ? asDataKey(bytes) : null;
  } catch {
    return null;
  }
}

function resolveStore(options: KeyVaultOptions): KeyRecordStore | null {
  if (options.store !== undefined) return options.store;
  const factory = options.indexedDB === undefined ? (globalThis.indexedDB ?? null) : options.indexedDB;
  return factory ? idbKeyRecordStore(factory, options.databaseName ?? KEY_DATABASE_NAME) : null;
}

function resolveLocalStorage(options: KeyVaultOptions): StorageLike | null {
  let local: StorageLike | null;
  if (options.localStorage !== undefined) local = options.localStorage;
  else {
    try {
      local = globalThis.localStorage ?? null;
    } catch {
      local = null; // access can throw (opaque origins, blocked storage)
    }
  }
  // A vault per owner (src/data/owner.ts) keeps its fallback copy under its own item name too.
  const prefix = options.databaseName;
  if (!local || !prefix) return local;
  const inner = local;
  return {
    getItem: (item) => inner.getItem(`${prefix}:${item}`),
    setItem: (item, value) => inner.setItem(`${prefix}:${item}`, value),
    removeItem: (item) => inner.removeItem(`${prefix}:${item}`),
  };
}

/** The default store: one object store in a dedicated IndexedDB database, opened per operation. */
export function idbKeyRecordStore(factory: IDBFactory, databaseName: string = KEY_DATABASE_NAME): KeyRecordStore {
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(OBJECT_STORE)) request.result.createObjectStore(OBJECT_STORE);
      };
      request.onsuccess = () => {
        const db = request.result;
        db.onversionchange = () => db.close();
        resolve(db);
      };
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
      request.onblocked = () => reject(new Error('IndexedDB open blocked'));
    });

  async function run<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
    const db = await open();
    try {
      return await new Promise<T>((resolve, reject) => {
        const tx = db.transaction(OBJECT_STORE, mode);
        let result: T;
        const request = op(tx.objectStore(OBJECT_STORE));
        request.onsuccess = () => {
          result = request.result;
        };
        tx.oncomplete = () => resolve(result);
        tx.onerror = () => reject(tx.error ?? request.error ?? new Error('IndexedDB transaction failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
      });
    } finally {
      db.close();
    }
  }

  return {
    get: (id) => run('readonly', (s) => s.get(id)),
    async add(id, value) {
      try {
        await run('readwrite', (s) => s.add(value, id));
        return true;
      } catch (error) {
        if (error instanceof Error && error.name === 'ConstraintError') return false;
        throw error;
      }
    },
    delete: async (id) => {
      await run('readwrite', (s) => s.delete(id));
    },
    async destroy() {
      await run('readwrite', (s) => s.clear());
      await new Promise<void>((resolve, reject) => {
        const request = factory.deleteDatabase(databaseName);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error ?? new Error('IndexedDB delete failed'));
        // Records are already cleared; another open connection only delays the file removal.
        request.onblocked = () => resolve();
      });
    },
  };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

