import { getOrCreateDataKey, idbKeyRecordStore, type DataKey, type KeyRecordStore } from '@/data/crypto/key-vault';
import { keyDatabaseFor } from '@/data/owner';

/**
 * The data key as the worker sees it: read from the signed-in person's key database (the RSA-wrapped record
 * works here: only indexedDB and crypto.subtle are needed). The worker never creates or deletes a
 * key: a page does. Where the page fell back to localStorage (no usable IndexedDB), the worker
 * cannot read the key and returns null; the replayer then asks a page to replay instead.
 */
const KEY_RECORD_ID = 'data-key'; // key-vault's record id

function readOnly(inner: KeyRecordStore): KeyRecordStore {
  return {
    get: (id) => inner.get(id),
    add: async () => false,
    delete: async () => undefined,
    destroy: async () => undefined,
  };
}

/** The key of `owner` (the signed-in person, src/data/owner.ts). */
export async function workerDataKey(owner: string): Promise<DataKey | null> {
  try {
    const store = idbKeyRecordStore(indexedDB, keyDatabaseFor(owner));
    // No record: no key to find (and no 4096-bit key pair to generate for nothing).
    if ((await store.get(KEY_RECORD_ID)) == null) return null;
    return (await getOrCreateDataKey({ store: readOnly(store), localStorage: null })).key;
  } catch {
    return null;
  }
}
