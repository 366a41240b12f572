/**
 * RxStorage wrapper that encrypts the fields listed in a schema's `encrypted` array on the way in
 * and decrypts them on every way out (ARCHITECTURE rule 6: the store never holds plaintext, the UI
 * never holds ciphertext).
 *
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
 *
 * The instance wrapper (issue 13) works on whole lists, not documents: a write seals all its
 * documents in one batch (./document-codec.ts), a read opens all its records in one batch, and
 * change events are decrypted once for every subscriber, in order. It replaced RxDB's
 * `wrapRxStorageInstance` (like RxDB's `encryption-crypto-js` plugin uses), which handles each
 * document in its own promise chains, and each change event once per subscriber.
 */
import { clone, getPrimaryFieldOfPrimaryKey, hasEncryption } from 'rxdb';
import type {
  BulkWriteRow,
  EventBulk,
  FilledMangoQuery,
  PreparedQuery,
  RxDocumentData,
  RxJsonSchema,
  RxStorage,
  RxStorageBulkWriteResponse,
  RxStorageChangeEvent,
  RxStorageCountResult,
  RxStorageInstance,
  RxStorageInstanceCreationParams,
  RxStorageQueryResult,
  RxStorageWriteError,
} from 'rxdb';
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Ciphertext } from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';
import { createDocumentCodec, type Doc, type DocumentCodec } from './document-codec';

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
  readonly key: DataKey | Promise<DataKey>;
}

type AnyDoc = RxDocumentData<Doc>;
type ChangeBulk = EventBulk<RxStorageChangeEvent<AnyDoc>, unknown>;

/**
 * One encrypted collection's storage instance over the underlying (Dexie) one. Plain documents
 * above, stored forms below; every list goes through the codec in one batch.
 */
class EncryptedInstance<Internals, Options> implements RxStorageInstance<Doc, Internals, Options> {
  readonly databaseName: string;
  readonly internals: Readonly<Internals>;
  readonly options: Readonly<Options>;
  readonly schema: Readonly<RxJsonSchema<AnyDoc>>;
  readonly collectionName: string;
  /** The wrapped instance (tests walk down to the raw store through it, as with RxDB's wrappers). */
  readonly originalStorageInstance: RxStorageInstance<Doc, Internals, Options>;

  private readonly changes = new Subject<ChangeBulk>();
  private readonly source: Subscription;
  /** Change-event bulks whose records are still being opened (emitted in order, see `receive`). */
  private pending: Promise<void> | null = null;

  constructor(
    schema: RxJsonSchema<AnyDoc>,
    private readonly inner: RxStorageInstance<Doc, Internals, Options>,
    private readonly codec: DocumentCodec,
    private readonly fields: readonly string[],
  ) {
    this.databaseName = inner.databaseName;
    this.internals = inner.internals;
    this.options = inner.options;
    this.schema = schema;
    this.collectionName = inner.collectionName;
    this.originalStorageInstance = inner;
    this.source = inner.changeStream().subscribe({
      next: (bulk) => this.receive(bulk as ChangeBulk),
      error: (error: unknown) => this.changes.error(error),
      complete: () => this.changes.complete(),
    });
  }

  /**
   * Decrypts a bulk of change events once for every subscriber. Events of a write just made are
   * known to the codec and pass synchronously; a bulk that needs opening (another tab's write)
   * waits its turn, so bulks always come out in the order they went in.
   */
  private receive(bulk: ChangeBulk): void {
    let decoded: ChangeBulk | Promise<ChangeBulk>;
    try {
      decoded = this.decodeBulk(bulk);
    } catch (error) {
      decoded = Promise.reject(error);
    }
    if (this.pending === null && !(decoded instanceof Promise)) {
      this.changes.next(decoded);
      return;
    }
    const turn: Promise<void> = (this.pending ?? Promise.resolve())
      .then(() => decoded)
      .then(
        (ready) => this.changes.next(ready),
        (error: unknown) => this.changes.error(error),
      )
      .then(() => {
        if (this.pending === turn) this.pending = null;
      });
    this.pending = turn;
  }

  private decodeBulk(bulk: ChangeBulk): ChangeBulk | Promise<ChangeBulk> {
    const stored: Doc[] = [];
    for (const event of bulk.events) {
      if (event.documentData) stored.push(event.documentData);
      if (event.previousDocumentData) stored.push(event.previousDocumentData);
    }
    const build = (plain: readonly Doc[]): ChangeBulk => {
      let next = 0;
      const events = bulk.events.map((event) => ({
        operation: event.operation,
        documentId: event.documentId,
        documentData: (event.documentData ? plain[next++] : event.documentData) as AnyDoc,
        previousDocumentData: (event.previousDocumentData ? plain[next++] : event.previousDocumentData) as AnyDoc | undefined,
        isLocal: false,
      })) as RxStorageChangeEvent<AnyDoc>[];
      return { id: bulk.id, events, checkpoint: bulk.checkpoint, context: bulk.context };
    };
    const plain = this.codec.decryptMany(stored);
    return plain instanceof Promise ? plain.then(build) : build(plain);
  }

  async bulkWrite(rows: BulkWriteRow<Doc>[], context: string): Promise<RxStorageBulkWriteResponse<Doc>> {
    // One batch for every document and every `previous` (mostly known: RxDB read it through here).
    const plain: Doc[] = [];
    for (const row of rows) {
      plain.push(row.document);
      if (row.previous) plain.push(row.previous);
    }
    const stored = await this.codec.encryptMany(plain);
    let next = 0;
    const storedRows = rows.map((row) => {
      const document = stored[next++] as AnyDoc;
      return row.previous ? { document, previous: stored[next++] as AnyDoc } : { document };
    });
    const result = await this.inner.bulkWrite(storedRows, context);
    const error = result.error.length > 0 ? await this.decryptErrors(result.error, rows) : [];
    // RxDB: every change event of a write is out before the write resolves.
    while (this.pending) await this.pending;
    return { error };
  }

  /**
   * A refused write names the plain row it refused (the caller's own row: the storage below may
   * have copied it, as Dexie's does in development) and the stored document, decrypted.
   */
  private async decryptErrors(errors: RxStorageWriteError<Doc>[], rows: readonly BulkWriteRow<Doc>[]): Promise<RxStorageWriteError<Doc>[]> {
    const primaryPath = getPrimaryFieldOfPrimaryKey(this.schema.primaryKey) as string;
    const rowById = new Map<string, BulkWriteRow<Doc>>();
    for (const row of rows) rowById.set(String(row.document[primaryPath]), row);
    const storedInDb = (error: RxStorageWriteError<Doc>) => ('documentInDb' in error ? (error.documentInDb as Doc | undefined) : undefined);
    const inDb = errors.flatMap((error) => {
      const found = storedInDb(error);
      return found ? [found] : [];
    });
    const plainInDb = await this.codec.decryptMany(inDb);
    let next = 0;
    return Promise.all(
      errors.map(async (error) => {
        const documentInDb = storedInDb(error) ? (plainInDb[next++] as AnyDoc) : undefined;
        const writeRow = rowById.get(error.documentId) ?? (await this.decryptRow(error.writeRow));
        return (documentInDb ? { ...error, writeRow, documentInDb } : { ...error, writeRow }) as RxStorageWriteError<Doc>;
      }),
    );
  }

  /** A stored row back to plain (only for an error about a row this write did not contain). */
  private async decryptRow(row: BulkWriteRow<Doc>): Promise<BulkWriteRow<Doc>> {
    const [document, previous] = await this.codec.decryptMany(row.previous ? [row.document, row.previous] : [row.document]);
    return previous ? { document: document as AnyDoc, previous: previous as AnyDoc } : { document: document as AnyDoc };
  }

  async findDocumentsById(ids: string[], withDeleted: boolean): Promise<AnyDoc[]> {
    const found = await this.inner.findDocumentsById(ids, withDeleted);
    return (await this.codec.decryptMany(found)) as AnyDoc[];
  }

  async query(prepared: PreparedQuery<Doc>): Promise<RxStorageQueryResult<Doc>> {
    assertQueryAvoidsEncrypted(prepared.query as FilledMangoQuery<unknown>, this.fields, this.collectionName);
    const result = await this.inner.query(prepared);
    return { documents: (await this.codec.decryptMany(result.documents)) as AnyDoc[] };
  }

  count(prepared: PreparedQuery<Doc>): Promise<RxStorageCountResult> {
    try {
      assertQueryAvoidsEncrypted(prepared.query as FilledMangoQuery<unknown>, this.fields, this.collectionName);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.inner.count(prepared);
  }

  getAttachmentData(documentId: string, attachmentId: string, digest: string): Promise<Blob> {
    return this.inner.getAttachmentData(documentId, attachmentId, digest);
  }

  get getChangedDocumentsSince(): RxStorageInstance<Doc, Internals, Options>['getChangedDocumentsSince'] {
    const inner = this.inner;
    if (!inner.getChangedDocumentsSince) return undefined;
    return async (limit: number, checkpoint?: unknown) => {
      const result = await inner.getChangedDocumentsSince!(limit, checkpoint);
      return { checkpoint: result.checkpoint, documents: (await this.codec.decryptMany(result.documents)) as AnyDoc[] };
    };
  }

  changeStream(): Observable<ChangeBulk> {
    return this.changes.asObservable();
  }

  cleanup(minimumDeletedTime: number): Promise<boolean> {
    return this.inner.cleanup(minimumDeletedTime);
  }

  async close(): Promise<void> {
    this.source.unsubscribe();
    this.changes.complete();
    await this.inner.close();
  }

  async remove(): Promise<void> {
    this.source.unsubscribe();
    this.changes.complete();
    await this.inner.remove();
  }
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
      // The key may still be on its way (the vault's unwrap runs while the stores open).
      const [instance, dataKey] = await Promise.all([storage.createStorageInstance({ ...params, schema: toStorageSchema(params.schema) }), key]);
      const codec = createDocumentCodec({
        key: dataKey,
        collection: params.collectionName,
        primaryPath: getPrimaryFieldOfPrimaryKey(params.schema.primaryKey) as string,
        fields,
      });
      return new EncryptedInstance(
        params.schema as unknown as RxJsonSchema<AnyDoc>,
        instance as unknown as RxStorageInstance<Doc, Internals, InstanceCreationOptions>,
        codec,
        fields,
      ) as unknown as RxStorageInstance<RxDocType, Internals, InstanceCreationOptions>;
    },
  });
}
