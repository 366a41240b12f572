/**
 * Micro-benchmark: the same 1,000 documents inserted and queried through an encrypted collection
 * and through an unencrypted one, in one run. Used by `npm run bench` (./data-sections.ts, section b)
 * and by tests/data/bench-encryption.test.ts; not part of the app.
 */
import type { DataKey } from '@/data/crypto/key-vault';
import type { CollectionDefinitions, HearthStorageOptions } from '@/data/database/create-database';
import { createHearthDatabase, defineCollection } from '@/data/database/create-database';
import { documentAssociatedData, sealDocumentJsonBatch } from '@/data/crypto/field-cipher';

interface BenchDoc {
  id: string;
  date: string;
  status: string;
  description: string;
  canvas: { strokes: number[]; colour: string };
  shared_with: string[];
}

const schema = {
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 64 },
    date: { type: 'string', maxLength: 32 },
    status: { type: 'string', maxLength: 16 },
    description: { type: 'string' },
    canvas: { type: 'object', properties: { strokes: { type: 'array', items: { type: 'number' } }, colour: { type: 'string' } } },
    shared_with: { type: 'array', items: { type: 'string' } },
  },
  required: ['id', 'date', 'status', 'description', 'shared_with'],
  indexes: ['date', ['status', 'date']],
} as const;

const encryptedDefinition = defineCollection<BenchDoc>()({ schema, encrypted: ['description', 'canvas', 'shared_with'] });
const plainDefinition = defineCollection<BenchDoc>()({ schema, encrypted: [] });

export interface BenchTimings {
  /** One bulkInsert of all documents. */
  readonly insertMs: number;
  /** Mean of the query rounds right after the insert (the wrapper's plaintext cache is warm). */
  readonly queryMs: number;
  /** The first query after closing and reopening the database: every field is decrypted. */
  readonly coldQueryMs: number;
}
/**
 * What sealing the same documents costs outside the database, best of the same repeats: the part of
 * the insert's excess over plain that belongs to the platform's cipher, not to the wrapper.
 */
export interface CipherFloor {
  /** One `crypto.subtle.encrypt` (AES-GCM) per document, all issued before any is awaited. */
  readonly webCryptoMs: number;
  /** The app's batch seal (src/data/crypto/field-cipher.ts): the same calls plus nonces and base64. */
  readonly sealBatchMs: number;
}
export interface BenchResult {
  readonly documents: number;
  readonly plain: BenchTimings;
  readonly encrypted: BenchTimings;
  readonly cipher: CipherFloor;
  readonly ratio: { readonly insert: number; readonly query: number; readonly coldQuery: number; readonly total: number };
}

function makeDocs(count: number): BenchDoc[] {
  const text = 'Today we went to the park and I talked about how I feel about school. '.repeat(6);
  return Array.from({ length: count }, (_, i) => ({
    id: `doc-${String(i).padStart(5, '0')}`,
    date: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    status: i % 10 === 0 ? 'pending' : 'synced',
    description: `${i} ${text}`,
    canvas: { strokes: Array.from({ length: 20 }, (_, j) => i + j), colour: 'teal' },
    shared_with: ['staff-1', 'staff-2'],
  }));
}

/** The encrypted fields of each document as the wrapper seals them, and their associated data. */
function sealInputs(docs: BenchDoc[]) {
  const fields = encryptedDefinition.encrypted;
  return {
    jsons: docs.map((d) => JSON.stringify({ description: d.description, canvas: d.canvas, shared_with: d.shared_with })),
    aads: docs.map((d) => documentAssociatedData({ collection: 'entries', documentId: d.id, fields })),
  };
}

async function cipherFloorOnce(docs: BenchDoc[], key: DataKey): Promise<CipherFloor> {
  const { jsons, aads } = sealInputs(docs);
  const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  const encoder = new TextEncoder();
  const t0 = performance.now();
  const nonces = crypto.getRandomValues(new Uint8Array(12 * docs.length));
  await Promise.all(
    jsons.map((json, i) =>
      crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonces.subarray(i * 12, i * 12 + 12), additionalData: aads[i]! }, cryptoKey, encoder.encode(json)),
    ),
  );
  const t1 = performance.now();
  await sealDocumentJsonBatch(key, jsons, aads);
  const t2 = performance.now();
  return { webCryptoMs: t1 - t0, sealBatchMs: t2 - t1 };
}

async function runOne(
  definitions: CollectionDefinitions,
  options: HearthStorageOptions & { name: string; key: DataKey },
  docs: BenchDoc[],
  queryRounds: number,
): Promise<BenchTimings> {
  const open = () => createHearthDatabase({ ...options, collections: definitions, multiInstance: false, devMode: false });
  const queryAll = async (db: Awaited<ReturnType<typeof open>>, round: number) => {
    // A different selector each round so RxDB's query cache cannot answer without the storage.
    const since = new Date(Date.UTC(2023, 11, 31 - round)).toISOString();
    const found = await db.entries!.find({ selector: { date: { $gte: since } }, sort: [{ date: 'desc' }] }).exec();
    if (found.length !== docs.length) throw new Error(`benchmark query returned ${found.length}`);
  };
  let db = await open();
  try {
    const t0 = performance.now();
    await db.entries!.bulkInsert(docs);
    const t1 = performance.now();
    for (let round = 0; round < queryRounds; round++) await queryAll(db, round);
    const t2 = performance.now();
    await db.close();
    db = await open();
    const t3 = performance.now();
    await queryAll(db, 0);
    const t4 = performance.now();
    return { insertMs: t1 - t0, queryMs: (t2 - t1) / queryRounds, coldQueryMs: t4 - t3 };
  } finally {
    await db.remove();
  }
}

export async function benchEncryption(
  options: HearthStorageOptions & { key: DataKey; documents?: number; queryRounds?: number; repeats?: number; namePrefix?: string },
): Promise<BenchResult> {
  const count = options.documents ?? 1_000;
  const rounds = options.queryRounds ?? 5;
  const prefix = options.namePrefix ?? `hearth-bench-${Date.now().toString(36)}`;
  const docs = makeDocs(count);
  const storage = { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange, key: options.key };

  // Warm both paths (JIT, Dexie) before measuring; then alternate and keep the best of each
  // metric, which filters out noise from other processes sharing the CPU.
  await runOne({ entries: plainDefinition }, { ...storage, name: `${prefix}-warm-p` }, docs.slice(0, 200), 1);
  await runOne({ entries: encryptedDefinition }, { ...storage, name: `${prefix}-warm-e` }, docs.slice(0, 200), 1);
  const plainRuns: BenchTimings[] = [];
  const encryptedRuns: BenchTimings[] = [];
  for (let i = 0; i < (options.repeats ?? 3); i++) {
    plainRuns.push(await runOne({ entries: plainDefinition }, { ...storage, name: `${prefix}-p${i}` }, docs, rounds));
    encryptedRuns.push(await runOne({ entries: encryptedDefinition }, { ...storage, name: `${prefix}-e${i}` }, docs, rounds));
  }
  const best = (runs: BenchTimings[]): BenchTimings => ({
    insertMs: Math.min(...runs.map((r) => r.insertMs)),
    queryMs: Math.min(...runs.map((r) => r.queryMs)),
    coldQueryMs: Math.min(...runs.map((r) => r.coldQueryMs)),
  });
  const floors: CipherFloor[] = [];
  for (let i = 0; i < (options.repeats ?? 3) + 1; i++) floors.push(await cipherFloorOnce(docs, options.key));
  const cipher: CipherFloor = {
    webCryptoMs: Math.min(...floors.map((f) => f.webCryptoMs)),
    sealBatchMs: Math.min(...floors.map((f) => f.sealBatchMs)),
  };
  const plain = best(plainRuns);
  const encrypted = best(encryptedRuns);
  // Total: one insert plus one cold query (the warm-cache rounds would flatter the ratio).
  const totalPlain = plain.insertMs + plain.coldQueryMs;
  const totalEncrypted = encrypted.insertMs + encrypted.coldQueryMs;
  return {
    documents: count,
    plain,
    encrypted,
    cipher,
    ratio: {
      insert: encrypted.insertMs / plain.insertMs,
      query: encrypted.queryMs / plain.queryMs,
      coldQuery: encrypted.coldQueryMs / plain.coldQueryMs,
      total: totalEncrypted / totalPlain,
    },
  };
}

/** A result as `npm run bench` reports it: milliseconds to 0.1, ratios to 0.01. */
export function benchReport(result: BenchResult, method: string) {
  const round = (n: number, digits = 1) => Number(n.toFixed(digits));
  const ms = (t: BenchTimings) => ({ insertMs: round(t.insertMs), queryMs: round(t.queryMs), queryAfterReopenMs: round(t.coldQueryMs) });
  return {
    documents: result.documents,
    plain: ms(result.plain),
    encrypted: ms(result.encrypted),
    cipher: { webCryptoMs: round(result.cipher.webCryptoMs), sealBatchMs: round(result.cipher.sealBatchMs) },
    ratio: {
      insert: round(result.ratio.insert, 2),
      query: round(result.ratio.query, 2),
      queryAfterReopen: round(result.ratio.coldQuery, 2),
      total: round(result.ratio.total, 2),
    },
    method,
  };
}
