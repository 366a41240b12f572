import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { destroyKeys, getOrCreateDataKey } from '@/data/crypto/key-vault';
import { getActiveOwner, keyDatabaseFor, ownerIdFor, setActiveOwner } from '@/data/owner';

const fast = { modulusLength: 2048 } as const;

describe('owners on a shared device', () => {
  it('names each person by a stable hash that reveals neither site nor user id', async () => {
    const jamie = await ownerIdFor('demo', '7d9c2b1e-0000-4000-8000-000000000001');
    expect(await ownerIdFor('demo', '7d9c2b1e-0000-4000-8000-000000000001')).toBe(jamie);
    expect(await ownerIdFor('other', '7d9c2b1e-0000-4000-8000-000000000001')).not.toBe(jamie);
    expect(jamie).toMatch(/^hearth-[0-9a-f]{24}$/);
    expect(jamie).not.toContain('demo');
  });

  it('gives each person their own data key, and signing one out leaves the other readable', async () => {
    const indexedDB = new IDBFactory();
    const [a, b] = [await ownerIdFor('demo', 'a'), await ownerIdFor('demo', 'b')];
    const keyA = await getOrCreateDataKey({ ...fast, indexedDB, localStorage: null, databaseName: keyDatabaseFor(a) });
    const keyB = await getOrCreateDataKey({ ...fast, indexedDB, localStorage: null, databaseName: keyDatabaseFor(b) });
    expect(Buffer.from(keyA.key).equals(Buffer.from(keyB.key))).toBe(false);

    await destroyKeys({ indexedDB, localStorage: null, databaseName: keyDatabaseFor(a) });
    const againB = await getOrCreateDataKey({ ...fast, indexedDB, localStorage: null, databaseName: keyDatabaseFor(b) });
    expect(againB.created).toBe(false);
    expect(Buffer.from(againB.key).equals(Buffer.from(keyB.key))).toBe(true);
    const newA = await getOrCreateDataKey({ ...fast, indexedDB, localStorage: null, databaseName: keyDatabaseFor(a) });
    expect(newA.created).toBe(true);
  });

  it('keeps fallback keys of different people under different localStorage items', async () => {
    const items = new Map<string, string>();
    const local = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
    const a = await getOrCreateDataKey({ store: null, localStorage: local, databaseName: 'a-keys' });
    const b = await getOrCreateDataKey({ store: null, localStorage: local, databaseName: 'b-keys' });
    expect(items.size).toBe(2);
    expect(Buffer.from(a.key).equals(Buffer.from(b.key))).toBe(false);
  });

  it('remembers the signed-in person for the service worker, and forgets them at sign-out', async () => {
    const indexedDB = new IDBFactory();
    expect(await getActiveOwner(indexedDB)).toBeNull();
    await setActiveOwner('hearth-abc', indexedDB);
    expect(await getActiveOwner(indexedDB)).toBe('hearth-abc');
    await setActiveOwner(null, indexedDB);
    expect(await getActiveOwner(indexedDB)).toBeNull();
  });
});
