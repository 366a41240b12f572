/**
 * Field-level AES-256-GCM for the local replica (ARCHITECTURE "At rest").
 *
 * Wire format of one encrypted value: `v1:` + base64(nonce(12) || ciphertext || tag(16)).
 * The plaintext is `JSON.stringify(value)`; the associated data binds the ciphertext to its
 * collection, document id and field, so a ciphertext copied into another document, field or
 * collection fails authentication instead of decrypting.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import type { DataKey } from './key-vault';

export const CIPHERTEXT_PREFIX = 'v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

declare const ciphertextBrand: unique symbol;
declare const plaintextType: unique symbol;

/** A stored ciphertext string; `T` records (at type level only) what it decrypts to. */
export type Ciphertext<T = unknown> = string & {
  readonly [ciphertextBrand]: 'HearthCiphertext';
  readonly [plaintextType]?: T;
};

/** Where a value lives: the associated data every field ciphertext is bound to. */
export interface FieldContext {
  readonly collection: string;
  readonly documentId: string;
  readonly field: string;
}

export type DecryptErrorCode = 'malformed' | 'unsupported-version' | 'authentication-failed' | 'invalid-json';

/** Thrown when a value cannot be decrypted: wrong key, tampered, moved, or not a ciphertext. */
export class DecryptError extends Error {
  override readonly name = 'DecryptError';
  constructor(
    readonly code: DecryptErrorCode,
    readonly context: FieldContext,
    options?: { cause?: unknown },
  ) {
    super(`Cannot decrypt ${context.collection}.${context.field} of one document (${code})`, options);
  }
}

/** Thrown by encryption (value not JSON-serialisable, bad key). A bug, not an expected failure. */
export class EncryptError extends Error {
  override readonly name = 'EncryptError';
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Unambiguous encoding of the context (names may contain any character). */
export function associatedData(context: FieldContext): Uint8Array {
  return encoder.encode(JSON.stringify(['hearth-field-v1', context.collection, context.documentId, context.field]));
}

export function isCiphertext(value: unknown): value is Ciphertext {
  return typeof value === 'string' && value.startsWith(CIPHERTEXT_PREFIX);
}

export function encryptField<T>(key: DataKey, value: T, context: FieldContext): Ciphertext<T> {
  return encryptWithAad(key, value, associatedData(context));
}

export function decryptField<T = unknown>(key: DataKey, ciphertext: string, context: FieldContext): T {
  return decryptWithAad<T>(key, ciphertext, associatedData(context), context);
}

/** Lower-level forms taking precomputed associated data (used by the storage wrapper's hot path). */
export function encryptWithAad<T>(key: DataKey, value: T, aad: Uint8Array): Ciphertext<T> {
  const json = JSON.stringify(value);
  if (json === undefined) throw new EncryptError('Value is not JSON-serialisable');
  return sealJson(key, json, aad) as Ciphertext<T>;
}

export function decryptWithAad<T = unknown>(key: DataKey, ciphertext: string, aad: Uint8Array, context: FieldContext): T {
  const json = openJson(key, ciphertext, aad, context);
  try {
    return JSON.parse(json) as T;
  } catch (cause) {
    throw new DecryptError('invalid-json', context, { cause });
  }
}

/** Encrypts JSON text that the caller already serialised. */
export function sealJson(key: DataKey, json: string, aad: Uint8Array): Ciphertext {
  const nonce = nextNonce();
  const sealed = gcm(key, nonce, aad).encrypt(encoder.encode(json));
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce, 0);
  out.set(sealed, NONCE_BYTES);
  return (CIPHERTEXT_PREFIX + bytesToBase64(out)) as Ciphertext;
}

/** Authenticates and decrypts to the JSON text (not parsed). */
export function openJson(key: DataKey, ciphertext: string, aad: Uint8Array, context: FieldContext): string {
  if (typeof ciphertext !== 'string') throw new DecryptError('malformed', context);
  if (!ciphertext.startsWith(CIPHERTEXT_PREFIX)) {
    throw new DecryptError(/^v\d+:/.test(ciphertext) ? 'unsupported-version' : 'malformed', context);
  }
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(ciphertext.slice(CIPHERTEXT_PREFIX.length));
  } catch (cause) {
    throw new DecryptError('malformed', context, { cause });
  }
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new DecryptError('malformed', context);
  let plain: Uint8Array;
  try {
    plain = gcm(key, bytes.subarray(0, NONCE_BYTES), aad).decrypt(bytes.subarray(NONCE_BYTES));
  } catch (cause) {
    throw new DecryptError('authentication-failed', context, { cause });
  }
  try {
    return decoder.decode(plain);
  } catch (cause) {
    throw new DecryptError('invalid-json', context, { cause });
  }
}

/**
 * Random 96-bit nonces, drawn from a pool refilled by one CSPRNG call per 512 nonces
 * (a getRandomValues call costs more than the encryption of a short field). Each slice is used once.
 */
const NONCE_POOL_SIZE = NONCE_BYTES * 512;
let noncePool = new Uint8Array(0);
let noncePoolOffset = 0;
function nextNonce(): Uint8Array {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_SIZE);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.slice(noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePool.fill(0, noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

// Base64 without Buffer (browser and Node 20 both have btoa/atob).
const CHUNK = 0x8000;
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
