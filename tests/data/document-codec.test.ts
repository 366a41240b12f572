import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64ToBytes } from '@/contract/base64';
import {
  DecryptError,
  DOCUMENT_CIPHERTEXT_PREFIX,
  documentAssociatedData,
  documentAssociatedDataOf,
  documentErrorContext,
  openDocumentJson,
  openDocumentJsonBatch,
  sealDocumentJson,
  sealDocumentJsonBatch,
} from '@/data/crypto/field-cipher';
import { createDocumentCodec, type Doc } from '@/data/database/document-codec';
import { createHearthDatabase, type HearthDatabase } from '@/data/database/create-database';
import { fakeIdb, journalCollection, randomKey, uniqueName, type JournalDoc } from './fixtures';

const FIELDS = ['description', 'canvas', 'shared_with'];
const context = (id: string) => ({ collection: 'journal', documentId: id, fields: FIELDS });
const aad = (id: string) => documentAssociatedData(context(id));
const nonceOf = (record: string) => Array.from(base64ToBytes(record.slice(DOCUMENT_CIPHERTEXT_PREFIX.length)).subarray(0, 12)).join(',');

const collections = { journal: journalCollection };
const opened: HearthDatabase<typeof collections>[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

describe('document records in batches', () => {
  it('a batch seals the same v2 records one call would, each with its own nonce', async () => {
    const key = randomKey();
    const ids = Array.from({ length: 1_000 }, (_, i) => `doc-${i}`);
    const jsons = ids.map((id) => JSON.stringify({ description: `entry ${id}` }));
    const first = await sealDocumentJsonBatch(key, jsons, ids.map(aad));
    const second = await sealDocumentJsonBatch(key, jsons, ids.map(aad));
    const single = await sealDocumentJson(key, jsons[0]!, aad(ids[0]!));
    const nonces = new Set([...first, ...second, single].map(nonceOf));
    expect(nonces.size).toBe(2_001);
    // One call opens a batch's record, a batch opens one call's record: one format.
    expect(await openDocumentJson(key, first[999]!, aad('doc-999'), documentErrorContext(context('doc-999')))).toBe(jsons[999]);
    expect(await openDocumentJsonBatch(key, [single, ...first], [aad(ids[0]!), ...ids.map(aad)], (i) => documentErrorContext(context(String(i))))).toEqual([jsons[0], ...jsons]);
  });

  it('a batch seals texts of every width, across its shared buffers, as encode would', async () => {
    const key = randomKey();
    const texts = ['plain', 'é and ü', '中文 and ﷺ', '😀 and 🦄', 'lone \ud800 surrogate', 'x'.repeat(100_000), '😀'.repeat(20_000), ''];
    const ids = texts.map((_, i) => `doc-${i}`);
    const jsons = [...texts, ...texts].map((text) => JSON.stringify({ description: text }));
    const records = await sealDocumentJsonBatch(key, jsons, [...ids, ...ids].map(aad));
    const asEncoded = (json: string) => new TextDecoder().decode(new TextEncoder().encode(json));
    expect(await openDocumentJsonBatch(key, records, [...ids, ...ids].map(aad), (i) => documentErrorContext(context(String(i))))).toEqual(jsons.map(asEncoded));
  });

  it('a batch that cannot open one record says which one', async () => {
    const key = randomKey();
    const ids = ['a', 'b', 'c'];
    const records = await sealDocumentJsonBatch(key, ids.map((id) => `{"description":"${id}"}`), ids.map(aad));
    // b's record moved onto c: it no longer authenticates there.
    const error = await openDocumentJsonBatch(key, [records[0]!, records[1]!, records[1]!], ids.map(aad), (i) => documentErrorContext(context(ids[i]!))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecryptError);
    expect((error as DecryptError).code).toBe('authentication-failed');
    expect((error as DecryptError).context.documentId).toBe('c');
  });

  it('a large read asks for its decryptions a slice at a time, and still names a record that fails', async () => {
    const key = randomKey();
    const ids = Array.from({ length: 200 }, (_, i) => `doc-${i}`);
    const jsons = ids.map((id) => JSON.stringify({ description: `entry ${id}` }));
    const records = await sealDocumentJsonBatch(key, jsons, ids.map(aad));
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const askedAtPauses: number[] = [];
    const slices = { ms: -1, yield: vi.fn(async () => void askedAtPauses.push(decrypt.mock.calls.length)) };
    const contextOf = (i: number) => documentErrorContext(context(ids[i]!));

    expect(await openDocumentJsonBatch(key, records, ids.map(aad), contextOf, slices)).toEqual(jsons);
    // The page ran between slices, each time with only part of the batch asked for.
    expect(askedAtPauses.length).toBeGreaterThanOrEqual(5);
    expect(askedAtPauses[0]).toBeLessThan(ids.length);
    expect(decrypt).toHaveBeenCalledTimes(ids.length);
    // A spy waits on what it returns: it would handle every rejection itself.
    decrypt.mockRestore();

    // A record that fails in the first slice, while later slices wait their turn: named, and nothing unhandled.
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const moved = [records[1]!, ...records.slice(1)];
      // Yields that are tasks, so the failure arrives while the batch is still being asked for.
      const tasks = { ms: -1, yield: () => new Promise<void>((resolve) => setTimeout(resolve, 1)) };
      const error = await openDocumentJsonBatch(key, moved, ids.map(aad), contextOf, tasks).catch((e: unknown) => e);
      expect((error as DecryptError).code).toBe('authentication-failed');
      expect((error as DecryptError).context.documentId).toBe('doc-0');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('a large read is put back together in slices, letting the page run in between', async () => {
    const key = randomKey();
    const pauses = vi.fn(() => Promise.resolve());
    const writer = createDocumentCodec({ key, collection: 'journal', primaryPath: 'id', fields: FIELDS });
    const reader = createDocumentCodec({ key, collection: 'journal', primaryPath: 'id', fields: FIELDS, slices: { ms: -1, yield: pauses } });
    const plain: Doc[] = Array.from({ length: 200 }, (_, i) => ({ id: `doc-${i}`, date: '2024-01-01', description: `entry ${i}`, shared_with: [], _rev: '1-a' }));
    const stored = await writer.encryptMany(plain);
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const askedAtFirstPause: number[] = [];
    pauses.mockImplementationOnce(() => Promise.resolve(void askedAtFirstPause.push(decrypt.mock.calls.length)));
    // Copies, as IndexedDB hands back: nothing this reader has seen.
    const read = await reader.decryptMany(stored.map((doc) => ({ ...doc })));
    expect(read).toEqual(plain);
    expect(pauses.mock.calls.length).toBeGreaterThanOrEqual(5);
    // Listing the records to open (their associated data) is sliced too: the first pause came before any was asked for.
    expect(askedAtFirstPause).toEqual([0]);
    decrypt.mockRestore();
    // Records it has opened come back at once, without a promise and without pausing.
    pauses.mockClear();
    const again = reader.decryptMany(stored.map((doc) => ({ ...doc })));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toEqual(plain);
    expect(pauses).not.toHaveBeenCalled();
  });

  it('the associated data built per collection is byte for byte the one each document had', () => {
    const ids = ['doc-1', '', 'quote " and \\ backslash', 'línea\nnueva\t', '😀 emoji', '\u2028\u2029', '</script>', 'x'.repeat(300)];
    for (const [collection, fields] of [['journal', FIELDS], ['resident', ['app_settings']], ['comments', []]] as const) {
      const build = documentAssociatedDataOf(collection, fields);
      for (const id of ids) expect(build(id), `${collection} ${JSON.stringify(id)}`).toEqual(documentAssociatedData({ collection, documentId: id, fields }));
    }
  });

  it('a write seals in one batch and its change events hand back the very documents written', async () => {
    const db = await createHearthDatabase({ name: uniqueName(), key: randomKey(), collections, ...fakeIdb, multiInstance: false });
    opened.push(db);
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const docs: JournalDoc[] = Array.from({ length: 50 }, (_, i) => ({ id: `d-${i}`, date: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`, status: 'synced', description: `words ${i}`, shared_with: ['staff-1'] }));
    const seen: unknown[] = [];
    const sub = db.journal.storageInstance.changeStream().subscribe((bulk) => seen.push(...bulk.events.map((e) => e.documentData.description)));
    await db.journal.bulkInsert(docs);
    sub.unsubscribe();
    expect(encrypt).toHaveBeenCalledTimes(50);
    expect(decrypt).not.toHaveBeenCalled();
    expect(seen).toEqual(docs.map((d) => d.description));
  });

  it('an older replica, its records sealed one at a time, still opens', async () => {
    // Records as this app wrote them before batches: one sealDocumentJson per document, straight into IndexedDB.
    const name = uniqueName();
    const key = randomKey();
    const storage = getRxStorageDexie(fakeIdb);
    const first = await createHearthDatabase({ name, key, collections, ...fakeIdb, multiInstance: false });
    let inner = first.journal.storageInstance as unknown as { originalStorageInstance?: unknown; schema: unknown; databaseName: string; collectionName: string };
    while (inner.originalStorageInstance) inner = inner.originalStorageInstance as typeof inner;
    const { databaseName, collectionName, schema } = inner;
    await first.close();
    const bare = await storage.createStorageInstance({
      databaseInstanceToken: 'older-build',
      databaseName,
      collectionName,
      schema: schema as never,
      options: {},
      multiInstance: false,
      devMode: false,
    });
    const rows = await Promise.all(
      ['a', 'b'].map(async (id) => ({
        document: {
          id,
          date: '2024-02-01',
          status: 'synced',
          description: await sealDocumentJson(key, JSON.stringify({ description: `old ${id}`, shared_with: ['staff-9'] }), aad(id)),
          _deleted: false,
          _rev: '1-older',
          _meta: { lwt: Date.now() },
          _attachments: {},
        },
      })),
    );
    expect((await bare.bulkWrite(rows as never, 'older-build')).error).toEqual([]);
    await bare.close();

    const db = await createHearthDatabase({ name, key, collections, ...fakeIdb, multiInstance: false });
    opened.push(db);
    const found = await db.journal.find({ sort: [{ date: 'asc' }, { id: 'asc' }] }).exec();
    expect(found.map((d) => [d.id, d.description, d.shared_with])).toEqual([
      ['a', 'old a', ['staff-9']],
      ['b', 'old b', ['staff-9']],
    ]);
    await found[0]!.incrementalPatch({ description: 'new words' });
    expect((await db.journal.findOne('a').exec())?.description).toBe('new words');
  });
});
