/**
 * RxStorage wrapper that encrypts the fields listed in a schema's `encrypted` array on the way in
 * and decrypts them on every way out (ARCHITECTURE rule 6: the store never holds plaintext, the UI
 * never holds ciphertext).
 *
 * Built on RxDB's public `wrapRxStorageInstance`, like RxDB's own `encryption-crypto-js` plugin,
 * and with the same schema treatment: the collection schema declares each encrypted field with
 * its plain type; the schema handed to the underlying storage declares it `{ type: 'string' }`
 * and has no `encrypted` list. Clear fields (primary key, dates, sort keys, status, `_deleted`,
 * `_meta`, `_rev`) are stored as they are, so queries and indexes keep working on them.
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
import type { Ciphertext, FieldContext } from '../crypto/field-cipher';
import { DecryptError, EncryptError, associatedData, openJson, sealJson } from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';

/** The stored form of `T`: the fields `K` are ciphertext strings that decrypt to their plain type. */
export type Encrypted<T, K extends PropertyKey> = {
  [P in keyof T]: P extends K ? Ciphertext<T[P]> : T[P];
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
  encrypt(doc: T): Encrypted<T, K>;
  decrypt(doc: Encrypted<T, K>): T;
}

/**
 * Encrypts/decrypts the listed fields (dotted paths allowed) of one collection's documents.
 * Never mutates its input; shares untouched branches with it.
 */
export function createDocumentCodec<T extends object, K extends string>(args: {
  key: DataKey;
  collection: string;
  primaryPath: string;
  fields: readonly K[];
}): DocumentCodec<T, K> {
  const { key, collection, primaryPath, fields } = args;
  const paths = fields.map((field) => ({ field, parts: field.split('.') }));

  // The associated data is a pure function of (collection, id, field): remember the last few.
  const aadCache = new Map<string, Uint8Array[]>();
  const AAD_CACHE_MAX = 2_000;
  function aadFor(documentId: string): Uint8Array[] {
    let list = aadCache.get(documentId);
    if (!list) {
      list = paths.map(({ field }) => associatedData({ collection, documentId, field }));
      if (aadCache.size >= AAD_CACHE_MAX) aadCache.clear();
      aadCache.set(documentId, list);
    }
    return list;
  }

  /**
   * Plaintext JSON of ciphertexts this codec produced or opened recently, keyed by ciphertext.
   * Ciphertexts are unique (random nonce), and a hit is used only for the same document and field,
   * so the associated-data binding still holds. It spares the decryption of change events right
   * after a write and of unchanged documents when a live query re-runs. Memory only, per instance.
   */
  const plainCache = new Map<string, { documentId: string; field: number; json: string }>();
  const PLAIN_CACHE_MAX = 5_000;
  function remember(ciphertext: string, documentId: string, field: number, json: string) {
    if (plainCache.size >= PLAIN_CACHE_MAX) {
      const oldest = plainCache.keys().next();
      if (!oldest.done) plainCache.delete(oldest.value);
    }
    plainCache.set(ciphertext, { documentId, field, json });
  }

  function transform(doc: object, direction: 'encrypt' | 'decrypt'): object {
    const documentId = String((doc as Record<string, unknown>)[primaryPath]);
    const aads = aadFor(documentId);
    let out: Record<string, unknown> = doc as Record<string, unknown>;
    paths.forEach(({ field, parts }, i) => {
      const value = getProperty(out, field) as unknown;
      if (value === undefined) return;
      const aad = aads[i] as Uint8Array;
      let next: unknown;
      if (direction === 'encrypt') {
        const json = JSON.stringify(value);
        if (json === undefined) throw new EncryptError(`${collection}.${field} is not JSON-serialisable`);
        const ciphertext = sealJson(key, json, aad);
        remember(ciphertext, documentId, i, json);
        next = ciphertext;
      } else {
        const context: FieldContext = { collection, documentId, field };
        // A non-string here is plaintext in the store or corruption: never pass it through.
        if (typeof value !== 'string') throw new DecryptError('malformed', context);
        const hit = plainCache.get(value);
        let json: string;
        if (hit && hit.documentId === documentId && hit.field === i) {
          json = hit.json;
        } else {
          json = openJson(key, value, aad, context);
          remember(value, documentId, i, json);
        }
        try {
          next = JSON.parse(json);
        } catch (cause) {
          throw new DecryptError('invalid-json', context, { cause });
        }
      }
      out = setPathCopy(out, parts, next);
    });
    return out;
  }

  return {
    fields,
    encrypt: (doc) => transform(doc, 'encrypt') as Encrypted<T, K>,
    decrypt: (doc) => transform(doc, 'decrypt') as T,
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

/** The schema the underlying storage sees: encrypted fields become plain strings, no `encrypted` list. */
export function toStorageSchema<T>(schema: RxJsonSchema<T>): RxJsonSchema<T> {
  const fields = schema.encrypted ?? [];
  const out = clone(schema) as RxJsonSchema<T> & { properties: Record<string, unknown> };
  delete out.encrypted;
  for (const field of fields) {
    const parts = field.split('.');
    let level: { properties?: Record<string, unknown> } = out;
    for (const part of parts.slice(0, -1)) {
      const next = level.properties?.[part] as { properties?: Record<string, unknown> } | undefined;
      if (!next) throw new EncryptedStorageError('encrypted-field-missing', `Encrypted field "${field}" is not in the schema`);
      level = next;
    }
    const last = parts[parts.length - 1] as string;
    if (!level.properties || !(last in level.properties)) {
      throw new EncryptedStorageError('encrypted-field-missing', `Encrypted field "${field}" is not in the schema`);
    }
    level.properties[last] = { type: 'string' };
  }
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
      const wrapped = wrapRxStorageInstance<RxDocType>(
        params.schema,
        instance,
        (doc) => codec.encrypt(doc as RxDocumentData<RxDocType>) as RxDocumentData<unknown>,
        (doc) => codec.decrypt(doc as Encrypted<RxDocumentData<RxDocType>, string>),
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
