/**
 * Section b in Chromium: the browser entry that ./encryption-in-chromium.ts builds and loads. The
 * same benchmark as in Node (./bench-encryption.ts), on the browser's own IndexedDB and WebCrypto,
 * which is where the replica runs.
 */
import { asDataKey } from '@/data/crypto/key-vault';
import { benchEncryption, type BenchResult } from './bench-encryption';

export function run(documents: number, repeats: number): Promise<BenchResult> {
  return benchEncryption({ indexedDB, IDBKeyRange, key: asDataKey(crypto.getRandomValues(new Uint8Array(32))), documents, repeats });
}
