/**
 * `v1:` single values (see ./field-cipher.ts for both formats): synchronous AES-256-GCM with
 * @noble/ciphers, for the outbox (src/data/outbox/seal.ts) and the pulled-ahead pages
 * (src/data/prefetch/store.ts), which open values one by one in loops over records already read.
 *
 * A module of its own, imported with `import()` when a value is first sealed or opened (issue 13):
 * noble builds its AES tables as it loads, about 10 ms of main thread here and 40 ms on a phone
 * four times slower, and a start with nothing waiting in the outbox opens no value at all. The
 * service worker imports it statically (its replay needs it at once, and a dynamic import in the
 * worker's build brings Vite's preload helper, whose `import.meta` a classic worker cannot parse).
 */
import { gcm } from '@noble/ciphers/aes.js';
import type { DataKey } from './key-vault';
import {
  associatedData,
  CIPHERTEXT_PREFIX,
  DecryptError,
  decodeText,
  EncryptError,
  nextNonce,
  NONCE_BYTES,
  pack,
  unpack,
  type Ciphertext,
  type FieldContext,
} from './field-cipher';

const encoder = new TextEncoder();

export function encryptField<T>(key: DataKey, value: T, context: FieldContext): Ciphertext<T> {
  const json = JSON.stringify(value);
  if (json === undefined) throw new EncryptError('Value is not JSON-serialisable');
  return sealJson(key, json, associatedData(context)) as Ciphertext<T>;
}

export function decryptField<T = unknown>(key: DataKey, ciphertext: string, context: FieldContext): T {
  const json = openJson(key, ciphertext, associatedData(context), context);
  try {
    return JSON.parse(json) as T;
  } catch (cause) {
    throw new DecryptError('invalid-json', context, { cause });
  }
}

/** Encrypts JSON text that the caller already serialised. */
export function sealJson(key: DataKey, json: string, aad: Uint8Array): Ciphertext {
  const nonce = nextNonce();
  return pack(CIPHERTEXT_PREFIX, nonce, gcm(key, nonce, aad).encrypt(encoder.encode(json)));
}

/** Authenticates and decrypts to the JSON text (not parsed). */
export function openJson(key: DataKey, ciphertext: string, aad: Uint8Array, context: FieldContext): string {
  const bytes = unpack(ciphertext, CIPHERTEXT_PREFIX, context);
  let plain: Uint8Array;
  try {
    plain = gcm(key, bytes.subarray(0, NONCE_BYTES), aad).decrypt(bytes.subarray(NONCE_BYTES));
  } catch (cause) {
    throw new DecryptError('authentication-failed', context, { cause });
  }
  return decodeText(plain, context);
}
