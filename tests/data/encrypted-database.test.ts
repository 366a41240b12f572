import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import type { RxDocumentData, RxJsonSchema } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCUMENT_CIPHERTEXT_PREFIX, DecryptError, isCiphertext } from '@/data/crypto/field-cipher';
import type { HearthDatabase } from '@/data/database/create-database';
import { CollectionDefinitionError, createHearthDatabase, defineCollection } from '@/data/database/create-database';
import { EncryptedStorageError } from '@/data/database/encrypted-storage';
import type { JournalDoc } from './fixtures';
import { dumpIndexedDb, fakeIdb, journalCollection, listDatabases, randomKey, uniqueName } from './fixtures';

const CANARY = 'CANARY-the-secret-a-child-wrote-7f3a';
const collections = { journal: journalCollection };
type Db = HearthDatabase<typeof collections>;

const open: Db[] = [];
async function openDb(name: string, key = randomKey()): Promise<Db> {
  const db = await createHearthDatabase({ name, key, collections, ...fakeIdb, multiInstance: false });
  open.push(db);
  return db;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

function doc(id: string, date: string, description: string, extra: Partial<JournalDoc> = {}): JournalDoc {
  return { id, date, status: 'synced', description, shared_with: ['staff-1'], ...extra };
}

/** All Dexie databases RxDB created for this replica name. */
async function dumpReplica(name: string) {
  const names = (await listDatabases()).filter((n) => n.includes(name));
  expect(names.length).toBeGreaterThan(0);
  const dumps = await Promise.all(names.map((n) => dumpIndexedDb(n)));
  return { text: dumps.map((d) => d.text).join('\n'), records: dumps.reduce((n, d) => n + d.records, 0) };
}

describe('encrypted collection', () => {
  it('reads plaintext everywhere while IndexedDB holds only ciphertext', async () => {
    const name = uniqueName();
    const db = await openDb(name);
    const seen: string[][] = [];
    const sub = db.journal.find({ sort: [{ date: 'asc' }] }).$.subscribe((docs) => seen.push(docs.map((d) => d.description)));

    await db.journal.insert(doc('a', '2024-01-02', CANARY, { canvas: { strokes: [1, 2, 3], colour: 'teal' } }));
    await db.journal.bulkInsert([doc('b', '2024-01-01', 'older entry'), doc('c', '2024-01-03', 'newer', { status: 'pending' })]);

    // findOne and exec
    const a = await db.journal.findOne('a').exec();
    expect(a?.description).toBe(CANARY);
    expect(a?.canvas).toEqual({ strokes: [1, 2, 3], colour: 'teal' });
    expect(a?.shared_with).toEqual(['staff-1']);
    const byIds = await db.journal.findByIds(['a', 'c']).exec();
    expect(byIds.get('c')?.description).toBe('newer');

    // queries on clear fields: filter and sort on date and status
    const sorted = await db.journal.find({ sort: [{ date: 'desc' }] }).exec();
    expect(sorted.map((d) => d.id)).toEqual(['c', 'a', 'b']);
    const filtered = await db.journal.find({ selector: { date: { $gte: '2024-01-02' }, status: 'synced' } }).exec();
    expect(filtered.map((d) => d.description)).toEqual([CANARY]);
    expect(await db.journal.count({ selector: { status: 'pending' } }).exec()).toBe(1);

    // the reactive query emitted decrypted documents
    await firstValueFrom(db.journal.find().$.pipe(filter((docs) => docs.length === 3)));
    const last = seen[seen.length - 1];
    expect(last).toEqual(['older entry', CANARY, 'newer']);
    sub.unsubscribe();

    // the raw IndexedDB: no canary, no plaintext of any encrypted field, clear fields still clear
    const raw = await dumpReplica(name);
    expect(raw.records).toBeGreaterThanOrEqual(3);
    expect(raw.text).not.toContain(CANARY);
    expect(raw.text).not.toContain('older entry');
    expect(raw.text).not.toContain('teal');
    expect(raw.text).not.toContain('staff-1');
    expect(raw.text).toContain('2024-01-03');
    expect(raw.text).toContain('pending');
  });

  it('stores one v2 record per document in the first encrypted field and nothing in the others', async () => {
    const name = uniqueName();
    const db = await openDb(name);
    await db.journal.insert(doc('a', '2024-01-02', CANARY, { canvas: { strokes: [1], colour: 'teal' } }));
    const dexieDocs = await findRaw(db, 'a');
    expect(isCiphertext(dexieDocs.description)).toBe(true);
    expect(String(dexieDocs.description).startsWith(DOCUMENT_CIPHERTEXT_PREFIX)).toBe(true);
    expect(dexieDocs).not.toHaveProperty('shared_with');
    expect(dexieDocs).not.toHaveProperty('canvas');
    expect(dexieDocs.date).toBe('2024-01-02');
    expect(dexieDocs.status).toBe('synced');
    // An optional encrypted field that is absent stays absent after the round trip.
    await db.journal.insert(doc('b', '2024-01-03', 'no drawing'));
    const b = await db.journal.findOne('b').exec();
    expect(b?.toJSON()).not.toHaveProperty('canvas');
    expect(b?.shared_with).toEqual(['staff-1']);
  });

  it('refuses a stored document with plaintext beside its record', async () => {
    const name = uniqueName();
    const key = randomKey();
    const db = await openDb(name, key);
    await db.journal.insert(doc('a', '2024-01-02', CANARY));
    const rawA = await findRaw(db, 'a');
    const { schema, databaseName, collectionName } = innermost(db);
    await db.close();
    const bare = await getRxStorageDexie(fakeIdb).createStorageInstance({
      databaseInstanceToken: 'tamper',
      databaseName,
      collectionName,
      schema,
      options: {},
      multiInstance: false,
      devMode: false,
    });
    const leaked = { ...rawA, shared_with: ['plain'], _rev: '2-leak', _meta: { lwt: Date.now() } };
    expect((await bare.bulkWrite([{ previous: rawA as never, document: leaked as never }], 'test-tamper')).error).toEqual([]);
    await bare.close();
    const reopened = await openDb(name, key);
    const error = await reopened.journal.findOne('a').exec().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptError);
    expect((error as DecryptError).code).toBe('malformed');
  });

  it('validates plain documents against the plain schema in development', async () => {
    const db = await openDb(uniqueName());
    expect(db.storage.name.startsWith('validate-')).toBe(true);
    const bad = { ...doc('a', '2024-01-02', 'x'), description: 42 } as unknown as JournalDoc;
    await expect(db.journal.insert(bad)).rejects.toThrow();
    expect(await db.journal.count().exec()).toBe(0);
  });

  it('round-trips updates and deletes', async () => {
    const name = uniqueName();
    const db = await openDb(name);
    const inserted = await db.journal.insert(doc('a', '2024-01-02', 'first draft'));
    await inserted.incrementalPatch({ description: `${CANARY} edited`, status: 'pending' });
    let current = await db.journal.findOne('a').exec();
    expect(current?.description).toBe(`${CANARY} edited`);
    expect(current?.status).toBe('pending');

    await current?.incrementalModify((d) => ({ ...d, shared_with: ['staff-2', 'staff-3'] }));
    await db.journal.upsert(doc('b', '2024-02-01', 'upserted'));
    await db.journal.upsert(doc('b', '2024-02-01', 'upserted twice'));
    current = await db.journal.findOne('a').exec();
    expect(current?.shared_with).toEqual(['staff-2', 'staff-3']);
    expect((await db.journal.findOne('b').exec())?.description).toBe('upserted twice');

    await current?.remove();
    expect(await db.journal.findOne('a').exec()).toBeNull();
    expect((await db.journal.find().exec()).map((d) => d.id)).toEqual(['b']);

    const raw = await dumpReplica(name);
    expect(raw.text).not.toContain(CANARY);
    expect(raw.text).not.toContain('first draft');
    expect(raw.text).not.toContain('upserted');
  });

  it('keeps data across reopen with the same key and refuses another key with a typed error', async () => {
    const name = uniqueName();
    const key = randomKey();
    const first = await openDb(name, key);
    await first.journal.insert(doc('a', '2024-01-02', CANARY));
    await first.close();

    const again = await openDb(name, key);
    expect((await again.journal.findOne('a').exec())?.description).toBe(CANARY);
    await again.close();

    const stranger = await openDb(name, randomKey());
    const error = await stranger.journal.find().exec().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptError);
    expect((error as DecryptError).code).toBe('authentication-failed');
    const byId = await stranger.journal.findOne('a').exec().catch((e: unknown) => e);
    expect(byId).toBeInstanceOf(DecryptError);
  });

  it('refuses a ciphertext moved into another document (associated data)', async () => {
    const name = uniqueName();
    const key = randomKey();
    const db = await openDb(name, key);
    await db.journal.bulkInsert([doc('a', '2024-01-02', CANARY), doc('b', '2024-01-03', 'harmless')]);
    const rawA = await findRaw(db, 'a');
    const rawB = await findRaw(db, 'b');
    // Tamper with the closed replica through a bare Dexie instance (no RxDB, no wrapper listening).
    const { schema, databaseName, collectionName } = innermost(db);
    await db.close();
    const bare = await getRxStorageDexie(fakeIdb).createStorageInstance({
      databaseInstanceToken: 'tamper',
      databaseName,
      collectionName,
      schema,
      options: {},
      multiInstance: false,
      devMode: false,
    });
    const moved = { ...rawB, description: rawA.description, _rev: '2-moved', _meta: { lwt: Date.now() } };
    const written = await bare.bulkWrite([{ previous: rawB as never, document: moved as never }], 'test-tamper');
    expect(written.error).toEqual([]);
    await bare.close();

    const reopened = await openDb(name, key);
    expect((await reopened.journal.findOne('a').exec())?.description).toBe(CANARY);
    const error = await reopened.journal.findOne('b').exec().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptError);
    expect((error as DecryptError).code).toBe('authentication-failed');
    expect((error as DecryptError).context).toMatchObject({ collection: 'journal', documentId: 'b', field: 'description,canvas,shared_with' });
  });

  it('rejects queries on encrypted fields instead of silently matching nothing', async () => {
    const db = await openDb(uniqueName());
    await db.journal.insert(doc('a', '2024-01-02', CANARY));
    const error = await db.journal.find({ selector: { description: CANARY } }).exec().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncryptedStorageError);
    expect((error as EncryptedStorageError).code).toBe('query-on-encrypted-field');
  });

  it('refuses schemas that would index or key an encrypted field', () => {
    interface Doc {
      id: string;
      secret: string;
    }
    const schema = {
      version: 0,
      primaryKey: 'id',
      type: 'object',
      properties: { id: { type: 'string', maxLength: 40 }, secret: { type: 'string', maxLength: 40 } },
      required: ['id', 'secret'],
    } as const;
    expect(() => defineCollection<Doc>()({ schema: { ...schema, indexes: ['secret'] }, encrypted: ['secret'] })).toThrow(EncryptedStorageError);
    expect(() => defineCollection<Doc>()({ schema, encrypted: ['id'] })).toThrow(EncryptedStorageError);
    expect(() => defineCollection<Doc>()({ schema: { ...schema, version: 1 }, encrypted: ['secret'] })).toThrow(CollectionDefinitionError);
    expect(() =>
      defineCollection<Doc>()({ schema: { ...schema, required: ['id'], indexes: ['secret'] }, encrypted: [] }),
    ).toThrow(CollectionDefinitionError);
  });
});

interface RawInstance {
  originalStorageInstance?: unknown;
  schema: RxJsonSchema<RxDocumentData<unknown>>;
  databaseName: string;
  collectionName: string;
  findDocumentsById(ids: string[], withDeleted: boolean): Promise<unknown[]>;
  bulkWrite(rows: { previous?: unknown; document: unknown }[], context: string): Promise<{ error: unknown[] }>;
}

/** Walks down the wrapper chain (validator → encryption → Dexie) to the innermost storage instance. */
function innermost(db: Db): RawInstance {
  let instance = db.journal.storageInstance as unknown as RawInstance;
  while (instance.originalStorageInstance) instance = instance.originalStorageInstance as RawInstance;
  return instance;
}

async function findRaw(db: Db, id: string): Promise<Record<string, unknown>> {
  const [found] = (await innermost(db).findDocumentsById([id], false)) as Record<string, unknown>[];
  if (!found) throw new Error('not found');
  return found;
}
