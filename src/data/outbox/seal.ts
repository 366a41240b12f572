import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { associatedData, openJson, sealJson } from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';

/**
 * Encryption at rest of outbox entries: AES-256-GCM under the device's data key, each value bound
 * (associated data) to the entry id and the part it is, so a ciphertext moved to another entry or
 * part fails to decrypt.
 */
const COLLECTION = 'hearth-outbox';
export type SealedPart = 'meta' | 'request' | 'failure' | 'result' | `file:${number}`;

const aad = (entryId: string, part: SealedPart): Uint8Array =>
  associatedData({ collection: COLLECTION, documentId: entryId, field: part });

export function sealValue(key: DataKey, entryId: string, part: SealedPart, value: unknown): string {
  return sealJson(key, JSON.stringify(value), aad(entryId, part));
}

export function openValue<T>(key: DataKey, entryId: string, part: SealedPart, ciphertext: string): T {
  return JSON.parse(openJson(key, ciphertext, aad(entryId, part), { collection: COLLECTION, documentId: entryId, field: part })) as T;
}

const NONCE = 12;

/** File bytes: nonce || ciphertext || tag (binary, no base64 inflation). */
export function sealBytes(key: DataKey, entryId: string, index: number, bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const nonce = randomBytes(NONCE);
  const sealed = gcm(key, nonce, aad(entryId, `file:${index}`)).encrypt(bytes);
  const out = new Uint8Array(NONCE + sealed.length);
  out.set(nonce, 0);
  out.set(sealed, NONCE);
  return out;
}

export function openBytes(key: DataKey, entryId: string, index: number, sealed: Uint8Array): Uint8Array<ArrayBuffer> {
  const plain = gcm(key, sealed.subarray(0, NONCE), aad(entryId, `file:${index}`)).decrypt(sealed.subarray(NONCE));
  const out = new Uint8Array(plain.length);
  out.set(plain);
  return out;
}
