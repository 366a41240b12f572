/**
 * AES-256-GCM for data at rest (ARCHITECTURE "At rest"). Two formats, one nonce source, one
 * base64 codec and one error type:
 *
 * - `v2:` **document records**, the replica's format (see `sealDocumentJson`): one ciphertext per
 *   document holding all its encrypted fields as one JSON object, bound by the associated data to
 *   collection, document id and the list of encrypted fields. Encrypted with WebCrypto.
 * - `v1:` **single values** (`sealJson`/`openJson`, `encryptField`/`decryptField`): synchronous,
 *   used by the outbox (src/data/outbox/seal.ts), whose callers are synchronous. @noble/ciphers.
 *
 * Wire format of both: prefix + base64(nonce(12) || ciphertext || tag(16)). A ciphertext copied
 * into another document, field or collection fails authentication instead of decrypting.
 *
 * Why the replica path uses WebCrypto and not @noble/ciphers (the design card's library): every
 * replica write and every cold read goes through it. Noble is pure JS on the main thread: it
 * rebuilds the AES key schedule and the GHASH tables on every call (~14 µs here) and then runs at
 * ~50 MB/s on this machine (far less on a cheap phone), blocking rendering for the whole batch.
 * `crypto.subtle` is native (AES instructions), runs off the main thread, keeps the key schedule in
 * the imported CryptoKey, and its cost per document barely depends on the document's size
 * (a drawing's strokes cost as much as a short text). Measured on 1,000 documents of ~550 bytes:
 * noble ~35 ms per batch, WebCrypto ~20 ms. The outbox keeps noble only because its API is sync;
 * nothing encrypts a document both ways.
 *
 * Batches (issue 13): `sealDocumentJsonBatch` / `openDocumentJsonBatch` take every record of one
 * storage write or read at once: one key lookup, one nonce draw, every WebCrypto call issued before
 * any is awaited, one `Promise.all`. Per document that leaves the native call and the base64 step.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import { sliceClock, type Slices } from '@/lib/time-slices';
import type { DataKey } from './key-vault';

export const CIPHERTEXT_PREFIX = 'v1:';
/** Document records (the replica): see `sealDocumentJson`. */
export const DOCUMENT_CIPHERTEXT_PREFIX = 'v2:';
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

const ENCODE_BLOCK = 65_536;

/**
 * The UTF-8 of many texts, a view each into shared 64 KiB blocks: `encode` allocates a buffer per
 * text, and a write of 1,000 entries spent 4 ms of its main thread there (Chromium profile, stop 40).
 */
function encodeAll(texts: readonly string[]): Uint8Array<ArrayBuffer>[] {
  const out = new Array<Uint8Array<ArrayBuffer>>(texts.length);
  let block = new Uint8Array(0);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (block.length - at < text.length * 3) {
      block = new Uint8Array(Math.max(ENCODE_BLOCK, text.length * 3));
      at = 0;
    }
    const { written } = encoder.encodeInto(text, block.subarray(at));
    out[i] = block.subarray(at, at + written);
    at += written;
  }
  return out;
}

/** Unambiguous encoding of the context (names may contain any character). */
export function associatedData(context: FieldContext): Uint8Array {
  return encoder.encode(JSON.stringify(['hearth-field-v1', context.collection, context.documentId, context.field]));
}

/** True for either format (`v1:` value, `v2:` document record). */
export function isCiphertext(value: unknown): value is Ciphertext {
  return typeof value === 'string' && (value.startsWith(CIPHERTEXT_PREFIX) || value.startsWith(DOCUMENT_CIPHERTEXT_PREFIX));
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

function decodeText(plain: Uint8Array, context: FieldContext): string {
  try {
    return decoder.decode(plain);
  } catch (cause) {
    throw new DecryptError('invalid-json', context, { cause });
  }
}

/**
 * The engine's own base64 (`Uint8Array.prototype.toBase64`, `Uint8Array.fromBase64`: Chromium 140+,
 * Firefox 133+, Safari 18.2+) where it exists: one native call instead of a binary string and
 * `btoa`/`atob` per record. Same alphabet and padding, same forgiving decoding (whitespace and
 * missing padding accepted, anything else throws); elsewhere (Node 20, older phones) the contract codec.
 */
type NativeBase64 = { toBase64?: () => string };
type NativeBase64Ctor = { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> };
const nativeFromBase64 = (Uint8Array as unknown as NativeBase64Ctor).fromBase64;
const hasNativeToBase64 = typeof (Uint8Array.prototype as NativeBase64).toBase64 === 'function';
const encodeBase64 = (bytes: Uint8Array): string => (hasNativeToBase64 ? (bytes as NativeBase64).toBase64!() : bytesToBase64(bytes));
const decodeBase64 = (text: string): Uint8Array<ArrayBuffer> => (nativeFromBase64 ? nativeFromBase64(text) : base64ToBytes(text));

/** prefix + base64(nonce || ciphertext || tag) → bytes, or a typed error. */
function unpack(ciphertext: string, prefix: string, context: FieldContext | (() => FieldContext)): Uint8Array<ArrayBuffer> {
  const fail = (code: DecryptErrorCode, cause?: unknown) =>
    new DecryptError(code, typeof context === 'function' ? context() : context, cause === undefined ? undefined : { cause });
  if (typeof ciphertext !== 'string') throw fail('malformed');
  if (!ciphertext.startsWith(prefix)) {
    throw fail(/^v\d+:/.test(ciphertext) ? 'unsupported-version' : 'malformed');
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = decodeBase64(ciphertext.slice(prefix.length));
  } catch (cause) {
    throw fail('malformed', cause);
  }
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw fail('malformed');
  return bytes;
}

/** prefix + base64(nonce || sealed), without joining the bytes: 12 bytes are exactly 16 base64 characters. */
function pack(prefix: string, nonce: Uint8Array, sealed: Uint8Array): Ciphertext {
  return (prefix + encodeBase64(nonce) + encodeBase64(sealed)) as Ciphertext;
}

// ---------------------------------------------------------------------------------------------
// v2 document records (the replica)

/** What a document record is bound to: its collection, its id and the encrypted fields it holds. */
export interface DocumentContext {
  readonly collection: string;
  readonly documentId: string;
  /** The collection's encrypted fields, in schema order (the record holds those present). */
  readonly fields: readonly string[];
}

/** Unambiguous encoding of a document record's context; distinct from every `v1` value context. */
export function documentAssociatedData(context: DocumentContext): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify(['hearth-doc-v2', context.collection, context.documentId, context.fields]));
}

/**
 * `documentAssociatedData` for one collection's documents, byte for byte: JSON writes an array as
 * its elements joined by commas, so only the id is written per document. Reading 5,000 journal
 * entries spent 16 ms of one task building the whole array for each (issue 13, stop 39).
 */
export function documentAssociatedDataOf(collection: string, fields: readonly string[]): (documentId: string) => Uint8Array<ArrayBuffer> {
  const head = `${JSON.stringify(['hearth-doc-v2', collection]).slice(0, -1)},`;
  const tail = `,${JSON.stringify(fields)}]`;
  return (documentId) => encoder.encode(head + JSON.stringify(documentId) + tail);
}

/** The error context of a document record: `field` lists the encrypted fields. */
export function documentErrorContext(context: DocumentContext): FieldContext {
  return { collection: context.collection, documentId: context.documentId, field: context.fields.join(',') };
}

/** One imported, non-extractable AES-GCM key per data key (the key schedule is computed once). */
const subtleKeys = new WeakMap<DataKey, Promise<CryptoKey>>();
function subtleKey(key: DataKey): Promise<CryptoKey> {
  let imported = subtleKeys.get(key);
  if (!imported) {
    const subtle = globalThis.crypto?.subtle;
    if (!subtle) throw new EncryptError('WebCrypto (crypto.subtle) is unavailable: the replica needs a secure context');
    imported = subtle.importKey('raw', key, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    subtleKeys.set(key, imported);
  }
  return imported;
}

/**
 * Encrypts a document record's JSON text (an object of its encrypted fields) to `v2:` +
 * base64(nonce || ciphertext || tag) with WebCrypto AES-256-GCM and the given associated data
 * (from `documentAssociatedData`).
 */
export async function sealDocumentJson(key: DataKey, json: string, aad: Uint8Array<ArrayBuffer>): Promise<Ciphertext> {
  const cryptoKey = await subtleKey(key);
  const nonce = nextNonce();
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: aad }, cryptoKey, encoder.encode(json));
  return pack(DOCUMENT_CIPHERTEXT_PREFIX, nonce, new Uint8Array(sealed));
}

/** Authenticates and decrypts a `v2:` document record to its JSON text (not parsed). */
export async function openDocumentJson(key: DataKey, ciphertext: string, aad: Uint8Array<ArrayBuffer>, context: FieldContext): Promise<string> {
  const bytes = unpack(ciphertext, DOCUMENT_CIPHERTEXT_PREFIX, context);
  const cryptoKey = await subtleKey(key);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, NONCE_BYTES), additionalData: aad },
      cryptoKey,
      bytes.subarray(NONCE_BYTES),
    );
  } catch (cause) {
    throw new DecryptError('authentication-failed', context, { cause });
  }
  return decodeText(new Uint8Array(plain), context);
}

/**
 * `sealDocumentJson` for many records at once (one storage write): the same format, nonces and
 * associated data, with one key lookup and one nonce draw, and every WebCrypto call issued before
 * any is awaited (the calls run in parallel off the main thread).
 */
export async function sealDocumentJsonBatch(
  key: DataKey,
  jsons: readonly string[],
  aads: readonly Uint8Array<ArrayBuffer>[],
): Promise<Ciphertext[]> {
  const count = jsons.length;
  if (count === 0) return [];
  const cryptoKey = await subtleKey(key);
  const nonces = nextNonces(count);
  const plaintexts = encodeAll(jsons);
  const sealing = new Array<Promise<ArrayBuffer>>(count);
  for (let i = 0; i < count; i++) {
    const iv = nonces.subarray(i * NONCE_BYTES, (i + 1) * NONCE_BYTES);
    sealing[i] = crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aads[i] as Uint8Array<ArrayBuffer> }, cryptoKey, plaintexts[i]!);
  }
  const sealed = await Promise.all(sealing);
  const out = new Array<Ciphertext>(count);
  for (let i = 0; i < count; i++) {
    out[i] = pack(DOCUMENT_CIPHERTEXT_PREFIX, nonces.subarray(i * NONCE_BYTES, (i + 1) * NONCE_BYTES), new Uint8Array(sealed[i] as ArrayBuffer));
  }
  nonces.fill(0);
  return out;
}

const ignore = (): void => undefined;

/**
 * `openDocumentJson` for many records at once (one storage read). Rejects with the `DecryptError`
 * of the first record that fails (`contextOf(i)` names it; only called on failure).
 *
 * With `slices`, the decryptions are asked for a slice at a time: asking costs the main thread (the
 * record's base64, WebCrypto's call, which in Chromium deciphers a short record right there), and a
 * journal of 5,000 entries asked for at once was one task of about 80 ms here (Lighthouse trace of
 * the journal, warm), four times that on a cheap phone. What was asked for is deciphered meanwhile.
 * The plaintexts are decoded in slices too. The clock is read every 8 records: every 32 let a slice
 * of 8 ms run to 15-17 ms (a record can cost a quarter of a millisecond there).
 */
export async function openDocumentJsonBatch(
  key: DataKey,
  records: readonly string[],
  aads: readonly Uint8Array<ArrayBuffer>[],
  contextOf: (index: number) => FieldContext,
  slices?: Slices,
): Promise<string[]> {
  const count = records.length;
  if (count === 0) return [];
  const cryptoKey = await subtleKey(key);
  const opening = new Array<Promise<ArrayBuffer>>(count);
  const asking = sliceClock(slices, 8);
  for (let i = 0; i < count; i++) {
    if (asking.due(i)) await asking.pause();
    const bytes = unpack(records[i] as string, DOCUMENT_CIPHERTEXT_PREFIX, () => contextOf(i));
    opening[i] = crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, NONCE_BYTES), additionalData: aads[i] as Uint8Array<ArrayBuffer> },
      cryptoKey,
      bytes.subarray(NONCE_BYTES),
    );
    // Waited for below; one that fails while a later slice waits its turn is not "unhandled" meanwhile.
    if (slices) opening[i]!.catch(ignore);
  }
  let plain: ArrayBuffer[];
  try {
    plain = await Promise.all(opening);
  } catch {
    // Which one: only on this (rare) path is every result waited for.
    const settled = await Promise.allSettled(opening);
    const index = settled.findIndex((result) => result.status === 'rejected');
    const failed = settled[index] as PromiseRejectedResult;
    throw new DecryptError('authentication-failed', contextOf(index), { cause: failed.reason });
  }
  const out = new Array<string>(count);
  const decoding = sliceClock(slices, 8);
  for (let i = 0; i < count; i++) {
    if (decoding.due(i)) await decoding.pause();
    try {
      out[i] = decoder.decode(plain[i]);
    } catch (cause) {
      throw new DecryptError('invalid-json', contextOf(i), { cause });
    }
  }
  return out;
}

/**
 * Random 96-bit nonces, drawn from a pool refilled by one CSPRNG call per 512 nonces
 * (a getRandomValues call costs more than the encryption of a short field). Each slice is used once.
 */
const NONCE_POOL_SIZE = NONCE_BYTES * 512;
let noncePool = new Uint8Array(0);
let noncePoolOffset = 0;
function nextNonce(): Uint8Array<ArrayBuffer> {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = crypto.getRandomValues(new Uint8Array(NONCE_POOL_SIZE));
    noncePoolOffset = 0;
  }
  const nonce = noncePool.slice(noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePool.fill(0, noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

/** `count` nonces side by side (a batch): from the pool while it lasts, else one fresh CSPRNG draw. */
function nextNonces(count: number): Uint8Array<ArrayBuffer> {
  if (count === 1) return nextNonce();
  const bytes = count * NONCE_BYTES;
  const out = new Uint8Array(bytes);
  if (noncePoolOffset + bytes <= noncePool.length) {
    out.set(noncePool.subarray(noncePoolOffset, noncePoolOffset + bytes));
    noncePool.fill(0, noncePoolOffset, noncePoolOffset + bytes);
    noncePoolOffset += bytes;
    return out;
  }
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < bytes; offset += 65_536) crypto.getRandomValues(out.subarray(offset, Math.min(bytes, offset + 65_536)));
  return out;
}
