/**
 * One collection's documents between their plain form (what RxDB and the screens see) and their
 * stored form (what IndexedDB holds), in batches: the format is described in ./encrypted-storage.ts.
 *
 * Why batches (issue 13): a storage write or read is a list of documents. Sealing or opening them
 * one promise chain at a time cost more than the encryption itself (about three promises and two
 * copies of the document per encrypted field, per document). Here a list is split in one pass,
 * sealed or opened by one call of the field cipher (every WebCrypto call issued at once, see
 * ../crypto/field-cipher.ts) and put back together in one pass; a list whose records are all known
 * (just written, or read before) comes back synchronously, without any promise.
 */
import { flatClone, getProperty } from 'rxdb';
import type { Ciphertext, DocumentContext, FieldContext } from '../crypto/field-cipher';
import {
  DecryptError,
  EncryptError,
  documentAssociatedDataOf,
  documentErrorContext,
  openDocumentJsonBatch,
  sealDocumentJsonBatch,
} from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';
import { sliceClock, type Slices } from '@/lib/time-slices';
import { yieldToMain } from '@/lib/yield-to-main';

export type Doc = Record<string, unknown>;

export interface DocumentCodec {
  readonly fields: readonly string[];
  /** The field whose stored value is the document's ciphertext (the first encrypted field). */
  readonly holder: string;
  /** Stored forms of `docs`, in order. Synchronous when every one is known (nothing to seal). */
  encryptMany(docs: readonly Doc[]): Doc[] | Promise<Doc[]>;
  /**
   * Plain forms of `docs`, in order. Synchronous when every record is known (nothing to open); a
   * malformed record throws (synchronously or as the rejection) a `DecryptError`.
   */
  decryptMany(docs: readonly Doc[]): Doc[] | Promise<Doc[]>;
}

/**
 * Longest stretch of main-thread work (ms) while putting a large read back together before
 * letting the page paint and handle input (issue 13: no task over 50 ms at start on a cheap phone).
 */
export const SLICE_MS = 8;

export interface DocumentCodecArgs {
  readonly key: DataKey;
  readonly collection: string;
  readonly primaryPath: string;
  readonly fields: readonly string[];
  /** Tests: the slice length (default `SLICE_MS`) and how to yield (default `yieldToMain`). */
  readonly slices?: { readonly ms?: number; readonly yield?: () => Promise<void> };
}

export function createDocumentCodec(args: DocumentCodecArgs): DocumentCodec {
  const { key, collection, primaryPath, fields } = args;
  const slices: Slices = { ms: args.slices?.ms ?? SLICE_MS, yield: args.slices?.yield ?? yieldToMain };
  if (fields.length === 0) throw new EncryptError(`${collection}: no encrypted fields`);
  const holder = fields[0] as string;
  const encrypted = new Set(fields);
  /** Every encrypted field is a top-level property (all of the replica's are): one pass over keys. */
  const flat = fields.every((field) => !field.includes('.'));
  const paths = fields.map((field) => ({ field, parts: field.split('.') }));
  const contextFor = (documentId: string): DocumentContext => ({ collection, documentId, fields });

  // The associated data is a pure function of (collection, id, fields): remember the last few,
  // dropping the oldest (clearing all at the limit made every read of a larger collection miss).
  const associatedData = documentAssociatedDataOf(collection, fields);
  const aadCache = new Map<string, Uint8Array<ArrayBuffer>>();
  const AAD_CACHE_MAX = 5_000;
  function aadFor(documentId: string): Uint8Array<ArrayBuffer> {
    let aad = aadCache.get(documentId);
    if (!aad) {
      aad = associatedData(documentId);
      if (aadCache.size >= AAD_CACHE_MAX) {
        const oldest = aadCache.keys().next();
        if (!oldest.done) aadCache.delete(oldest.value);
      }
      aadCache.set(documentId, aad);
    }
    return aad;
  }

  /**
   * The plain field values of records this codec sealed or opened recently, found by ciphertext.
   * Ciphertexts are unique (random nonce), and a hit needs the whole record to be equal and the
   * same document id, so the associated-data binding still holds. It spares the decryption of
   * unchanged documents when a live query re-runs or a document is read again. The values are
   * shared, as the unencrypted storage shares them between the written document and its change
   * event (RxDB treats document data as immutable). Memory only, per instance. Looked up by the
   * record's first characters (its nonce), not the whole string: hashing a long string on every
   * write and read cost more than a short key and one comparison.
   */
  const plainCache = new Map<string, { record: string; documentId: string; values: Doc }>();
  const PLAIN_CACHE_MAX = 5_000;
  /** `v2:` then base64 of the 12-byte nonce and the first bytes of the ciphertext. */
  const cacheKey = (record: string) => record.slice(3, 27);
  /**
   * Records bigger than this are not remembered: a kept document's 1 MiB chunk (issue 11) would
   * otherwise stay in memory twice (its ciphertext as the key, its base64 as the value) long after
   * the viewer that read it has gone.
   */
  const PLAIN_CACHE_MAX_CHARS = 64 * 1024;
  function remember(record: string, documentId: string, values: Doc) {
    if (record.length > PLAIN_CACHE_MAX_CHARS) return;
    if (plainCache.size >= PLAIN_CACHE_MAX) {
      const oldest = plainCache.keys().next();
      if (!oldest.done) plainCache.delete(oldest.value);
    }
    plainCache.set(cacheKey(record), { record, documentId, values });
  }
  function recall(record: string, documentId: string): Doc | null {
    const hit = plainCache.get(cacheKey(record));
    return hit && hit.record === record && hit.documentId === documentId ? hit.values : null;
  }

  /**
   * Stored forms this codec made → the plain documents they came from. The storage below emits a
   * write's change events with the very objects it was given, so the events of a write come back
   * to the documents RxDB wrote, as an unencrypted storage would hand them back, without a lookup.
   */
  const plainByStored = new WeakMap<object, Doc>();

  /**
   * Plain document object → its stored form, for objects this codec produced or consumed. RxDB
   * hands back the document it read as the `previous` of the next write (used for the revision
   * check only); re-sealing it would cost a full encryption per update. Identity plus the same
   * `_rev` and id make the stored form exactly the one read.
   */
  const storedByPlain = new WeakMap<object, Doc>();
  const sameVersion = (a: Doc, b: Doc) => a._rev === b._rev && a[primaryPath] === b[primaryPath];

  /** Plain → [clear part (holder not set yet), encrypted values]. Never mutates `plain`. */
  function split(plain: Doc): [Doc, Doc] {
    const values: Doc = {};
    if (flat) {
      const clear: Doc = {};
      for (const name of Object.keys(plain)) {
        const value = plain[name];
        if (!encrypted.has(name)) clear[name] = value;
        else if (value !== undefined) values[name] = value;
      }
      return [clear, values];
    }
    let clear = plain;
    for (const { field, parts } of paths) {
      const value = getProperty(plain, field) as unknown;
      if (value === undefined) continue;
      values[field] = value;
      clear = deletePathCopy(clear, parts);
    }
    return [clear === plain ? flatClone(plain) : clear, values];
  }

  /** Stored form: the clear part with the record in the holder (`clear` is this codec's own copy). */
  function withRecord(clear: Doc, record: Ciphertext): Doc {
    if (flat) {
      clear[holder] = record;
      return clear;
    }
    return setPathCopy(clear, holder.split('.'), record);
  }

  /** Plain form: the stored document without its record, with the encrypted values. */
  function withValues(stored: Doc, values: Doc): Doc {
    if (flat) {
      const plain: Doc = {};
      for (const name of Object.keys(stored)) if (name !== holder) plain[name] = stored[name];
      for (const field of fields) if (Object.prototype.hasOwnProperty.call(values, field)) plain[field] = values[field];
      return plain;
    }
    let out = deletePathCopy(stored, holder.split('.'));
    for (const { field, parts } of paths) {
      if (Object.prototype.hasOwnProperty.call(values, field)) out = setPathCopy(out, parts, values[field]);
    }
    return out === stored ? flatClone(stored) : out;
  }

  /** The record of a stored document; anything else in its encrypted fields is refused. */
  function recordOf(stored: Doc, documentId: string): string {
    const record = flat ? stored[holder] : (getProperty(stored, holder) as unknown);
    // Anything but a record in the holder, or any value beside it, is plaintext in the store or
    // corruption: never pass it through.
    let clean = typeof record === 'string';
    for (let i = 1; clean && i < fields.length; i++) {
      const field = fields[i] as string;
      if ((flat ? stored[field] : getProperty(stored, field)) !== undefined) clean = false;
    }
    if (!clean) throw new DecryptError('malformed', documentErrorContext(contextFor(documentId)));
    return record as string;
  }

  function encryptMany(docs: readonly Doc[]): Doc[] | Promise<Doc[]> {
    const out = new Array<Doc>(docs.length);
    const slots: number[] = [];
    const clears: Doc[] = [];
    const valueSets: Doc[] = [];
    const jsons: string[] = [];
    const aads: Uint8Array<ArrayBuffer>[] = [];
    for (let i = 0; i < docs.length; i++) {
      const plain = docs[i] as Doc;
      const known = storedByPlain.get(plain);
      if (known && sameVersion(known, plain)) {
        out[i] = known;
        continue;
      }
      const [clear, values] = split(plain);
      let json: string;
      try {
        json = JSON.stringify(values);
      } catch (cause) {
        throw new EncryptError(`${collection}: a document is not JSON-serialisable`, { cause });
      }
      slots.push(i);
      clears.push(clear);
      valueSets.push(values);
      jsons.push(json);
      aads.push(aadFor(String(plain[primaryPath])));
    }
    if (slots.length === 0) return out;
    return sealDocumentJsonBatch(key, jsons, aads).then((records) => {
      for (let j = 0; j < slots.length; j++) {
        const i = slots[j] as number;
        const plain = docs[i] as Doc;
        const record = records[j] as Ciphertext;
        remember(record, String(plain[primaryPath]), valueSets[j] as Doc);
        const stored = withRecord(clears[j] as Doc, record);
        storedByPlain.set(plain, stored);
        plainByStored.set(stored, plain);
        out[i] = stored;
      }
      return out;
    });
  }

  function decryptMany(docs: readonly Doc[]): Doc[] | Promise<Doc[]> {
    const out = new Array<Doc>(docs.length);
    const slots: number[] = [];
    const records: string[] = [];
    const aads: Uint8Array<ArrayBuffer>[] = [];
    /**
     * Puts back the documents from `start` on whose records are known and lists the rest to open;
     * returns where it stopped: the end, or where this slice ran out (a read of 5,000 entries spent
     * one task of 33 ms here before a single decryption was asked for).
     */
    const look = (start: number): number => {
      const listing = sliceClock(slices, 32);
      for (let i = start; i < docs.length; i++) {
        // Only once a record needs opening: a read of known records stays synchronous, as promised.
        if (i > start && slots.length > 0 && listing.due(i)) return i;
        const stored = docs[i] as Doc;
        const written = plainByStored.get(stored);
        if (written) {
          out[i] = written;
          continue;
        }
        const documentId = String(stored[primaryPath]);
        const record = recordOf(stored, documentId);
        const values = recall(record, documentId);
        if (values) {
          const plain = withValues(stored, values);
          storedByPlain.set(plain, stored);
          out[i] = plain;
          continue;
        }
        slots.push(i);
        records.push(record);
        aads.push(aadFor(documentId));
      }
      return docs.length;
    };
    /** Opens the listed records and puts their documents back, in slices. */
    const openListed = (): Promise<Doc[]> => {
      const errorContext = (j: number): FieldContext =>
        documentErrorContext(contextFor(String((docs[slots[j] as number] as Doc)[primaryPath])));
      return openDocumentJsonBatch(key, records, aads, errorContext, slices).then(async (jsons) => {
        // A read of hundreds of documents is put back together in slices, so the page keeps painting.
        const joining = sliceClock(slices, 32);
        for (let j = 0; j < slots.length; j++) {
          if (joining.due(j)) await joining.pause();
          const i = slots[j] as number;
          const stored = docs[i] as Doc;
          let values: unknown;
          try {
            values = JSON.parse(jsons[j] as string);
          } catch (cause) {
            throw new DecryptError('invalid-json', errorContext(j), { cause });
          }
          if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new DecryptError('invalid-json', errorContext(j));
          remember(records[j] as string, String(stored[primaryPath]), values as Doc);
          const plain = withValues(stored, values as Doc);
          storedByPlain.set(plain, stored);
          out[i] = plain;
        }
        return out;
      });
    };
    let next = look(0);
    if (next === docs.length) return slots.length === 0 ? out : openListed();
    return (async () => {
      while (next < docs.length) {
        await slices.yield();
        next = look(next);
      }
      return slots.length === 0 ? out : openListed();
    })();
  }

  return { fields, holder, encryptMany, decryptMany };
}

/** Copy-on-write set: clones the root and every object on the path, shares the rest. */
function setPathCopy(root: Doc, parts: readonly string[], value: unknown): Doc {
  const head = parts[0] as string;
  const copy = flatClone(root);
  if (parts.length === 1) {
    copy[head] = value;
  } else {
    const child = copy[head];
    copy[head] = setPathCopy(typeof child === 'object' && child !== null ? (child as Doc) : {}, parts.slice(1), value);
  }
  return copy;
}

/** Copy-on-write delete: clones the root and every object on the path, shares the rest. */
function deletePathCopy(root: Doc, parts: readonly string[]): Doc {
  const head = parts[0] as string;
  if (!Object.prototype.hasOwnProperty.call(root, head)) return root;
  const copy = flatClone(root);
  if (parts.length === 1) {
    delete copy[head];
  } else {
    const child = copy[head];
    if (typeof child !== 'object' || child === null) return root;
    copy[head] = deletePathCopy(child as Doc, parts.slice(1));
  }
  return copy;
}
