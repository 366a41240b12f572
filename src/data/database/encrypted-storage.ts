/**
 * RxStorage wrapper that encrypts the fields listed in a schema's `encrypted` array on the way in
 * and decrypts them on every way out (ARCHITECTURE rule 6: the store never holds plaintext, the UI
 * never holds ciphertext).
 *
 * Built on RxDB's public `wrapRxStorageInstance`, like RxDB's own `encryption-crypto-js` plugin.
 * Stored form (format `v2`): **one ciphertext per document**. All encrypted fields present in the
 * document are serialised together as one JSON object `{ field: value }`, sealed once (WebCrypto
 * AES-256-GCM, see field-cipher.ts) and stored in the collection's *first* encrypted field (the
 * "holder"); the other encrypted fields are absent from the stored document. The associated data
 * binds the record to collection, document id and the list of encrypted fields. One seal per
 * document instead of one per field: one nonce, one tag, one base64, one WebCrypto call.
 *
 * The schema handed to the underlying storage declares the holder `{ type: 'string' }`, drops the
 * other encrypted fields and has no `encrypted` list. Clear fields (primary key, dates, sort keys,
 * status, `_deleted`, `_meta`, `_rev`) are stored as they are, so queries and indexes keep working.
 * (A separate `_enc` field is not possible: RxDB reserves top-level names starting with `_`.)
 *
 * Using the schema's own `encrypted` array (not a side config) means RxDB also encrypts what it
 * derives: the replication meta instance of an encrypted collection declares `encrypted:
 * ['docData']`, so the replication's copy of the server state goes through this wrapper too.
 */
import {
  clone,
  flatClone,
  getPrimaryFieldOfPrimaryKey,
  getProperty,
  hasEncryption,
  wrapRxStorageInstance,
} from 'rxdb';
import type {
  FilledMangoQuery,
  RxDocumentData,
  RxJsonSchema,
  RxStorage,
  RxStorageInstance,
  RxStorageInstanceCreationParams,
} from 'rxdb';
import type { Ciphertext, DocumentContext } from '../crypto/field-cipher';
import {
  DecryptError,
  EncryptError,
  documentAssociatedData,
  documentErrorContext,
  openDocumentJson,
  sealDocumentJson,
} from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';

/**
 * The stored form of `T`: the encrypted fields `K` are either the record ciphertext (the holder,
 * the first of them) or absent. At type level every one of them is an optional ciphertext.
 */
export type Encrypted<T, K extends PropertyKey> = {
  [P in keyof T as P extends K ? never : P]: T[P];
} & {
  [P in keyof T as P extends K ? P : never]?: Ciphertext<Record<string, unknown>>;
};

export type EncryptedStorageErrorCode = 'attachments-unsupported' | 'encrypted-field-indexed' | 'encrypted-field-missing' | 'query-on-encrypted-field';

/** A misuse of the encrypted storage: a schema or query that would leak or silently fail. */
export class EncryptedStorageError extends Error {
  override readonly name = 'EncryptedStorageError';
  constructor(
    readonly code: EncryptedStorageErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface DocumentCodec<T, K extends string> {
  readonly fields: readonly K[];
  /** The field whose stored value is the document's ciphertext (the first encrypted field). */
  readonly holder: K;
  /** Synchronous when the result is cached (see below), else a promise. */
  encrypt(doc: T): Encrypted<T, K> | Promise<Encrypted<T, K>>;
  decrypt(doc: Encrypted<T, K>): T | Promise<T>;
}

type Doc = Record<string, unknown>;

/**
 * Encrypts/decrypts one collection's documents (format above; dotted paths allowed).
 * Never mutates its input; shares untouched branches with it.
 */
export function createDocumentCodec<T extends object, K extends string>(args: {
  key: DataKey;
  collection: string;
  primaryPath: string;
  fields: readonly K[];
}): DocumentCodec<T, K> {
  const { key, collection, primaryPath, fields } = args;
  if (fields.length === 0) throw new EncryptError(`${collection}: no encrypted fields`);
  const paths = fields.map((field) => ({ field, parts: field.split('.') }));
  const holder = paths[0] as { field: K; parts: string[] };
  const others = paths.slice(1);
  const contextFor = (documentId: string): DocumentContext => ({ collection, documentId, fields });

  // The associated data is a pure function of (collection, id, fields): remember the last few.
  const aadCache = new Map<string, Uint8Array<ArrayBuffer>>();
  const AAD_CACHE_MAX = 2_000;
  function aadFor(documentId: string): Uint8Array<ArrayBuffer> {
    let aad = aadCache.get(documentId);
    if (!aad) {
      aad = documentAssociatedData(contextFor(documentId));
      if (aadCache.size >= AAD_CACHE_MAX) aadCache.clear();
      aadCache.set(documentId, aad);
    }
    return aad;
  }

  /**
   * The plain field values of records this codec sealed or opened recently, keyed by ciphertext.
   * Ciphertexts are unique (random nonce), and a hit is used only for the same document id, so the
   * associated-data binding still holds. It spares the decryption of the change events right after
   * a write and of unchanged documents when a live query re-runs. The values are shared, as the
   * unencrypted storage shares them between the written document and its change event (RxDB treats
   * document data as immutable). Memory only, per instance.
   */
  const plainCache = new Map<string, { documentId: string; values: Doc }>();
  const PLAIN_CACHE_MAX = 5_000;
  /**
   * Records bigger than this are not remembered: a kept document's 1 MiB chunk (issue 11) would
   * otherwise stay in memory twice (its ciphertext as the key, its base64 as the value) long after
   * the viewer that read it has gone.
   */
  const PLAIN_CACHE_MAX_CHARS = 64 * 1024;
  function remember(ciphertext: string, documentId: string, values: Doc) {
    if (ciphertext.length > PLAIN_CACHE_MAX_CHARS) return;
    if (plainCache.size >= PLAIN_CACHE_MAX) {
      const oldest = plainCache.keys().next();
      if (!oldest.done) plainCache.delete(oldest.value);
    }
    plainCache.set(ciphertext, { documentId, values });
  }

  /**
   * Plain document object → its stored form, for objects this codec produced or consumed. RxDB
   * hands back the document it read as the `previous` of the next write (used for the revision
   * check only); re-sealing it would cost a full encryption per update. Identity plus the same
   * `_rev` and id make the stored form exactly the one read.
   */
  const storedByPlain = new WeakMap<object, Doc>();
  const sameVersion = (a: Doc, b: Doc) => a._rev === b._rev && a[primaryPath] === b[primaryPath];

  function withValues(stored: Doc, values: Doc): Doc {
    let out = deletePathCopy(stored, holder.parts);
    for (const { field, parts } of paths) {
      if (Object.prototype.hasOwnProperty.call(values, field)) out = setPathCopy(out, parts, values[field]);
    }
    return out;
  }

  function encrypt(plain: Doc): Doc | Promise<Doc> {
    const known = storedByPlain.get(plain);
    if (known && sameVersion(known, plain)) return known;
    const documentId = String(plain[primaryPath]);
    const values: Doc = {};
    let out = plain;
    for (const { field, parts } of paths) {
      const value = getProperty(plain, field) as unknown;
      if (value === undefined) continue;
      values[field] = value;
      out = deletePathCopy(out, parts);
    }
    let json: string;
    try {
      json = JSON.stringify(values);
    } catch (cause) {
      throw new EncryptError(`${collection}: a document is not JSON-serialisable`, { cause });
    }
    return sealDocumentJson(key, json, aadFor(documentId)).then((ciphertext) => {
      remember(ciphertext, documentId, values);
      const stored = setPathCopy(out, holder.parts, ciphertext);
      storedByPlain.set(plain, stored);
      return stored;
    });
  }

  function decrypt(stored: Doc): Doc | Promise<Doc> {
    const documentId = String(stored[primaryPath]);
    const record = getProperty(stored, holder.field) as unknown;
    // Anything but a record in the holder, or any value beside it, is plaintext in the store or
    // corruption: never pass it through.
    if (typeof record !== 'string' || others.some(({ field }) => getProperty(stored, field) !== undefined)) {
      throw new DecryptError('malformed', documentErrorContext(contextFor(documentId)));
    }
    const hit = plainCache.get(record);
    if (hit && hit.documentId === documentId) {
      const plain = withValues(stored, hit.values);
      storedByPlain.set(plain, stored);
      return plain;
    }
    const context = documentErrorContext(contextFor(documentId));
    return openDocumentJson(key, record, aadFor(documentId), context).then((json) => {
      let values: unknown;
      try {
        values = JSON.parse(json);
      } catch (cause) {
        throw new DecryptError('invalid-json', context, { cause });
      }
      if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new DecryptError('invalid-json', context);
      remember(record, documentId, values as Doc);
      const plain = withValues(stored, values as Doc);
      storedByPlain.set(plain, stored);
      return plain;
    });
  }

  return {
    fields,
    holder: holder.field,
    encrypt: (doc) => encrypt(doc as Doc) as Encrypted<T, K> | Promise<Encrypted<T, K>>,
    decrypt: (doc) => decrypt(doc as Doc) as T | Promise<T>,
  };
}

/**
 * Completes results in call order. WebCrypto operations finish in any order, and
 * `wrapRxStorageInstance` emits each decrypted change-event batch as soon as it is ready
 * (`mergeMap`) and collects write rows as they finish: without this, a later batch of change
 * events could overtake an earlier one. Results already computed (cache hits) stay synchronous
 * while nothing is pending.
 */
function inCallOrder() {
  let pending = 0;
  let tail: Promise<unknown> = Promise.resolve();
  return <V>(work: () => V | Promise<V>): V | Promise<V> => {
    let result: V | Promise<V>;
    try {
      result = work();
    } catch (error) {
      result = Promise.reject(error);
    }
    if (!(result instanceof Promise) && pending === 0) return result;
    pending += 1;
    const ordered = Promise.all([result, tail]).then(([value]) => value);
    const settled = ordered.then(
      () => undefined,
      () => undefined,
    );
    tail = Promise.all([tail, settled]).then(() => {
      pending -= 1;
    });
    return ordered;
  };
}

/** Copy-on-write set: clones the root and every object on the path, shares the rest. */
function setPathCopy(root: Record<string, unknown>, parts: readonly string[], value: unknown): Record<string, unknown> {
  const head = parts[0] as string;
  const copy = flatClone(root);
  if (parts.length === 1) {
    copy[head] = value;
  } else {
    const child = copy[head];
    copy[head] = setPathCopy(typeof child === 'object' && child !== null ? (child as Record<string, unknown>) : {}, parts.slice(1), value);
  }
  return copy;
}

/** Copy-on-write delete: clones the root and every object on the path, shares the rest. */
function deletePathCopy(root: Record<string, unknown>, parts: readonly string[]): Record<string, unknown> {
  const head = parts[0] as string;
  if (!Object.prototype.hasOwnProperty.call(root, head)) return root;
  const copy = flatClone(root);
  if (parts.length === 1) {
    delete copy[head];
  } else {
    const child = copy[head];
    if (typeof child !== 'object' || child === null) return root;
    copy[head] = deletePathCopy(child as Record<string, unknown>, parts.slice(1));
  }
  return copy;
}

/**
 * The schema the underlying storage sees: the first encrypted field (the holder of the document's
 * ciphertext) becomes a plain string, the other encrypted fields are dropped (never stored), no
 * `encrypted` list.
 */
export function toStorageSchema<T>(schema: RxJsonSchema<T>): RxJsonSchema<T> {
  const fields = schema.encrypted ?? [];
  const out = clone(schema) as RxJsonSchema<T> & { properties: Record<string, unknown> };
  delete out.encrypted;
  fields.forEach((field, index) => {
    const parts = field.split('.');
    let level: { properties?: Record<string, unknown>; required?: readonly string[] } = out;
    for (const part of parts.slice(0, -1)) {
      const next = level.properties?.[part] as { properties?: Record<string, unknown> } | undefined;
      if (!next) throw new EncryptedStorageError('encrypted-field-missing', `Encrypted field "${field}" is not in the schema`);
      level = next;
    }
    const last = parts[parts.length - 1] as string;
    if (!level.properties || !(last in level.properties)) {
      throw new EncryptedStorageError('encrypted-field-missing', `Encrypted field "${field}" is not in the schema`);
    }
    if (index === 0) {
      level.properties[last] = { type: 'string' };
    } else {
      delete level.properties[last];
      if (Array.isArray(level.required)) level.required = level.required.filter((name) => name !== last);
    }
  });
  return out;
}

/** Throws unless every encrypted field stays out of the primary key and every index. */
export function assertEncryptableSchema<T>(schema: RxJsonSchema<T>, collection: string): void {
  const fields = schema.encrypted ?? [];
  if (schema.attachments) {
    throw new EncryptedStorageError(
      'attachments-unsupported',
      `${collection}: attachments would be stored unencrypted; keep files in the encrypted file cache`,
    );
  }
  const primaryPath = getPrimaryFieldOfPrimaryKey(schema.primaryKey) as string;
  const primaryParts = typeof schema.primaryKey === 'string' ? [schema.primaryKey] : (schema.primaryKey.fields as string[]);
  const indexed = new Set<string>([primaryPath, ...primaryParts, ...(schema.indexes ?? []).flat()]);
  for (const field of fields) {
    for (const path of indexed) {
      if (path === field || path.startsWith(field + '.') || field.startsWith(path + '.')) {
        throw new EncryptedStorageError('encrypted-field-indexed', `${collection}: encrypted field "${field}" cannot be a key or index ("${path}")`);
      }
    }
  }
}

/** Throws when a selector or sort names an encrypted field (it would silently match nothing). */
export function assertQueryAvoidsEncrypted(query: FilledMangoQuery<unknown>, fields: readonly string[], collection: string): void {
  if (fields.length === 0) return;
  const touches = (path: string) => fields.some((field) => path === field || path.startsWith(field + '.') || field.startsWith(path + '.'));
  const visit = (selector: unknown): void => {
    if (Array.isArray(selector)) return selector.forEach(visit);
    if (typeof selector !== 'object' || selector === null) return;
    for (const [name, value] of Object.entries(selector)) {
      if (name.startsWith('$')) {
        if (name === '$and' || name === '$or' || name === '$nor') visit(value);
        continue;
      }
      if (touches(name)) {
        throw new EncryptedStorageError('query-on-encrypted-field', `${collection}: "${name}" is encrypted and cannot be queried`);
      }
    }
  };
  visit(query.selector);
  for (const part of query.sort ?? []) {
    for (const name of Object.keys(part)) {
      if (touches(name)) {
        throw new EncryptedStorageError('query-on-encrypted-field', `${collection}: "${name}" is encrypted and cannot be sorted on`);
      }
    }
  }
}

export interface EncryptedStorageArgs<Internals, InstanceCreationOptions> {
  readonly storage: RxStorage<Internals, InstanceCreationOptions>;
  readonly key: DataKey;
}

/** Wraps a storage so every collection with `schema.encrypted` is encrypted at rest with `key`. */
export function wrappedFieldEncryptionStorage<Internals, InstanceCreationOptions>(
  args: EncryptedStorageArgs<Internals, InstanceCreationOptions>,
): RxStorage<Internals, InstanceCreationOptions> {
  const { storage, key } = args;
  return Object.assign({}, storage, {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance<RxDocType>(
      params: RxStorageInstanceCreationParams<RxDocType, InstanceCreationOptions>,
    ): Promise<RxStorageInstance<RxDocType, Internals, InstanceCreationOptions>> {
      assertEncryptableSchema(params.schema, params.collectionName);
      if (!hasEncryption(params.schema)) return storage.createStorageInstance(params);

      const fields = [...(params.schema.encrypted ?? [])];
      const instance = await storage.createStorageInstance({ ...params, schema: toStorageSchema(params.schema) });
      const codec = createDocumentCodec<RxDocumentData<RxDocType>, string>({
        key,
        collection: params.collectionName,
        primaryPath: getPrimaryFieldOfPrimaryKey(params.schema.primaryKey) as string,
        fields,
      });
      const encrypting = inCallOrder();
      const decrypting = inCallOrder();
      const wrapped = wrapRxStorageInstance<RxDocType>(
        params.schema,
        instance,
        (doc) => encrypting(() => codec.encrypt(doc as RxDocumentData<RxDocType>)) as unknown as RxDocumentData<unknown> | Promise<RxDocumentData<unknown>>,
        (doc) => decrypting(() => codec.decrypt(doc as Encrypted<RxDocumentData<RxDocType>, string>)),
      );
      const query = wrapped.query.bind(wrapped);
      const count = wrapped.count.bind(wrapped);
      wrapped.query = (prepared) => {
        assertQueryAvoidsEncrypted(prepared.query as FilledMangoQuery<unknown>, fields, params.collectionName);
        return query(prepared);
      };
      wrapped.count = (prepared) => {
        assertQueryAvoidsEncrypted(prepared.query as FilledMangoQuery<unknown>, fields, params.collectionName);
        return count(prepared);
      };
      return wrapped as RxStorageInstance<RxDocType, Internals, InstanceCreationOptions>;
    },
  });
}
