import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { KeyRecordStore } from '@/data/crypto/key-vault';
import { KEY_DATABASE_NAME, KeyVaultError, destroyKeys, getOrCreateDataKey, idbKeyRecordStore } from '@/data/crypto/key-vault';

/** A localStorage stand-in. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

/** Wraps the real IndexedDB store but refuses CryptoKeys, as engines without CryptoKey cloning do. */
function storeWithoutCryptoKeys(inner: KeyRecordStore): KeyRecordStore {
  const holdsCryptoKey = (value: unknown) =>
    typeof value === 'object' && value !== null && Object.values(value).some((v) => v instanceof CryptoKey);
  return {
    ...inner,
    add: async (id, value) => {
      if (holdsCryptoKey(value)) throw new DOMException('CryptoKey could not be cloned', 'DataCloneError');
      return inner.add(id, value);
    },
  };
}

function readRecord(factory: IDBFactory): Promise<unknown> {
  return idbKeyRecordStore(factory, KEY_DATABASE_NAME).get('data-key');
}

// 2048 bits keeps the suite fast; one test runs the production default of 4096.
const fast = { modulusLength: 2048 } as const;

describe('key vault', () => {
  it('creates a wrapped 4096-bit key once and returns the same key afterwards', async () => {
    const indexedDB = new IDBFactory();
    const local = memoryStorage();
    const first = await getOrCreateDataKey({ indexedDB, localStorage: local });
    expect(first).toMatchObject({ mode: 'wrapped', created: true });
    expect(first.key).toHaveLength(32);

    const second = await getOrCreateDataKey({ indexedDB, localStorage: local });
    expect(second).toMatchObject({ mode: 'wrapped', created: false });
    expect(Array.from(second.key)).toEqual(Array.from(first.key));

    // What is stored: a non-extractable private key and a wrapped blob, never the raw key.
    const record = (await readRecord(indexedDB)) as Record<string, unknown>;
    expect(record.mode).toBe('wrapped');
    const privateKey = record.privateKey as CryptoKey;
    expect(privateKey).toBeInstanceOf(CryptoKey);
    expect(privateKey.extractable).toBe(false);
    expect((privateKey.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBe(4096);
    expect(record).not.toHaveProperty('rawKey');
    expect(new Uint8Array(record.wrappedKey as ArrayBuffer)).toHaveLength(512);
    await expect(crypto.subtle.exportKey('pkcs8', privateKey)).rejects.toThrow();
    expect(local.items.size).toBe(0);
  });

  it('makes a new key after destroyKeys', async () => {
    const indexedDB = new IDBFactory();
    const local = memoryStorage();
    const first = await getOrCreateDataKey({ indexedDB, localStorage: local, ...fast });
    await destroyKeys({ indexedDB, localStorage: local });
    expect(await readRecord(indexedDB)).toBeUndefined();
    const second = await getOrCreateDataKey({ indexedDB, localStorage: local, ...fast });
    expect(second.created).toBe(true);
    expect(Array.from(second.key)).not.toEqual(Array.from(first.key));
  });

  it('falls back to an unwrapped key in the same store when it cannot hold CryptoKeys', async () => {
    const indexedDB = new IDBFactory();
    const local = memoryStorage();
    const store = storeWithoutCryptoKeys(idbKeyRecordStore(indexedDB));
    const first = await getOrCreateDataKey({ store, localStorage: local, ...fast });
    expect(first).toMatchObject({ mode: 'fallback', created: true });
    const record = (await readRecord(indexedDB)) as Record<string, unknown>;
    expect(record.mode).toBe('fallback');
    expect(Array.from(record.rawKey as Uint8Array)).toEqual(Array.from(first.key));

    const again = await getOrCreateDataKey({ store, localStorage: local, ...fast });
    expect(again).toMatchObject({ mode: 'fallback', created: false });
    expect(Array.from(again.key)).toEqual(Array.from(first.key));

    await destroyKeys({ store, localStorage: local });
    expect(await readRecord(indexedDB)).toBeUndefined();
  });

  it('falls back when WebCrypto fails', async () => {
    const indexedDB = new IDBFactory();
    const brokenSubtle = {
      generateKey: () => Promise.reject(new Error('not supported')),
    } as unknown as SubtleCrypto;
    const result = await getOrCreateDataKey({ indexedDB, subtle: brokenSubtle, localStorage: memoryStorage() });
    expect(result.mode).toBe('fallback');
    expect((await readRecord(indexedDB)) as Record<string, unknown>).toMatchObject({ mode: 'fallback' });
  });

  it('falls back to localStorage when IndexedDB fails entirely', async () => {
    const local = memoryStorage();
    const failing: KeyRecordStore = {
      get: () => Promise.reject(new Error('IDB unavailable')),
      add: () => Promise.reject(new Error('IDB unavailable')),
      delete: () => Promise.reject(new Error('IDB unavailable')),
      destroy: () => Promise.reject(new Error('IDB unavailable')),
    };
    const first = await getOrCreateDataKey({ store: failing, localStorage: local, ...fast });
    expect(first).toMatchObject({ mode: 'fallback', created: true });
    expect(local.items.size).toBe(1);
    const again = await getOrCreateDataKey({ store: failing, localStorage: local, ...fast });
    expect(Array.from(again.key)).toEqual(Array.from(first.key));

    await destroyKeys({ store: failing, localStorage: local });
    expect(local.items.size).toBe(0);
  });

  it('throws a typed error when nothing can hold a key', async () => {
    const error = await getOrCreateDataKey({ store: null, indexedDB: null, localStorage: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyVaultError);
    expect((error as KeyVaultError).code).toBe('no-storage');
  });

  it('refuses to invent a new key when the stored one cannot be unwrapped', async () => {
    const indexedDB = new IDBFactory();
    await getOrCreateDataKey({ indexedDB, ...fast, localStorage: null });
    const error = await getOrCreateDataKey({ indexedDB, subtle: null, localStorage: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyVaultError);
    expect((error as KeyVaultError).code).toBe('key-unreadable');
  });

  it('gives concurrent callers the same key', async () => {
    const indexedDB = new IDBFactory();
    const [a, b] = await Promise.all([
      getOrCreateDataKey({ indexedDB, localStorage: null, ...fast }),
      getOrCreateDataKey({ indexedDB, localStorage: null, ...fast }),
    ]);
    expect(Array.from(a.key)).toEqual(Array.from(b.key));
  });
});

describe('key vault: one unwrap per page', () => {
  /** Counts RSA decryptions (each unwrap of the stored key is one). */
  function countDecrypts() {
    const real = crypto.subtle.decrypt.bind(crypto.subtle);
    let count = 0;
    const spy = vi.spyOn(crypto.subtle, 'decrypt').mockImplementation((algorithm, key, data) => {
      if ((algorithm as { name?: string }).name === 'RSA-OAEP') count += 1;
      return real(algorithm, key, data);
    });
    return { get count() { return count; }, restore: () => spy.mockRestore() };
  }

  it('reads the stored key once however often the page asks, the same key each time', async () => {
    const indexedDB = new IDBFactory();
    // Stored by an earlier visit (explicit WebCrypto: not remembered by this page).
    const stored = await getOrCreateDataKey({ indexedDB, subtle: crypto.subtle, ...fast });
    const decrypts = countDecrypts();
    try {
      const results = await Promise.all([getOrCreateDataKey({ indexedDB }), getOrCreateDataKey({ indexedDB })]);
      const later = await getOrCreateDataKey({ indexedDB });
      expect(decrypts.count).toBe(1);
      for (const result of [...results, later]) {
        expect(result).toMatchObject({ mode: 'wrapped', created: false });
        expect(Array.from(result.key)).toEqual(Array.from(stored.key));
      }
      // Each caller gets its own copy: one that wipes its bytes does not wipe the others'.
      results[0]!.key.fill(0);
      expect(Array.from((await getOrCreateDataKey({ indexedDB })).key)).toEqual(Array.from(stored.key));
    } finally {
      decrypts.restore();
    }
  });

  it('forgets the key at the logout wipe: the next ask makes a new one', async () => {
    const indexedDB = new IDBFactory();
    const first = await getOrCreateDataKey({ indexedDB, ...fast });
    expect((await getOrCreateDataKey({ indexedDB })).key).toEqual(first.key);
    await destroyKeys({ indexedDB });
    expect(await readRecord(indexedDB)).toBeUndefined();
    const next = await getOrCreateDataKey({ indexedDB, ...fast });
    expect(next.created).toBe(true);
    expect(Array.from(next.key)).not.toEqual(Array.from(first.key));
  });

  it('a logout wipe while the key is still being made leaves no key behind', async () => {
    const indexedDB = new IDBFactory();
    const making = getOrCreateDataKey({ indexedDB, ...fast });
    await destroyKeys({ indexedDB });
    await making;
    expect(await readRecord(indexedDB)).toBeUndefined();
    expect(await getOrCreateDataKey({ indexedDB, ...fast })).toMatchObject({ created: true });
  });

  it('does not remember a failure: a key that cannot be read is tried again', async () => {
    const indexedDB = new IDBFactory();
    await idbKeyRecordStore(indexedDB, KEY_DATABASE_NAME).add('data-key', { v: 1, mode: 'unknown' });
    await expect(getOrCreateDataKey({ indexedDB })).rejects.toMatchObject({ code: 'key-unreadable' });
    await idbKeyRecordStore(indexedDB, KEY_DATABASE_NAME).delete('data-key');
    await expect(getOrCreateDataKey({ indexedDB, ...fast })).resolves.toMatchObject({ created: true });
  });
});
