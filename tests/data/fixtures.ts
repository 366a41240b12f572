import type { Account } from '@/contract/users';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { asDataKey } from '@/data/crypto/key-vault';
import type { DataKey } from '@/data/crypto/key-vault';
import { defineCollection } from '@/data/database/create-database';

export interface JournalDoc {
  id: string;
  date: string;
  status: 'synced' | 'pending' | 'failed';
  description: string;
  canvas?: { strokes: number[]; colour: string };
  shared_with: string[];
}

export const journalCollection = defineCollection<JournalDoc>()({
  schema: {
    title: 'journal',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: {
      id: { type: 'string', maxLength: 64 },
      date: { type: 'string', maxLength: 32 },
      status: { type: 'string', enum: ['synced', 'pending', 'failed'], maxLength: 8 },
      description: { type: 'string' },
      canvas: {
        type: 'object',
        properties: { strokes: { type: 'array', items: { type: 'number' } }, colour: { type: 'string' } },
        required: ['strokes', 'colour'],
      },
      shared_with: { type: 'array', items: { type: 'string' } },
    },
    required: ['id', 'date', 'status', 'description', 'shared_with'],
    indexes: ['date', ['status', 'date']],
  },
  encrypted: ['description', 'canvas', 'shared_with'],
});

/** The same shape stored in clear: the benchmark baseline. */
export const plainJournalCollection = defineCollection<JournalDoc>()({
  schema: journalCollection.schema,
  encrypted: [],
});

let counter = 0;
export function uniqueName(prefix = 'hearth-test'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export function randomKey(): DataKey {
  return asDataKey(crypto.getRandomValues(new Uint8Array(32)));
}

export const fakeIdb = { indexedDB, IDBKeyRange };

/** A collection of short notes, their text encrypted: for tests of the storage below RxDB. */
export const notesCollection = defineCollection<{ id: string; text: string }>()({
  schema: {
    title: 'notes',
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: { id: { type: 'string', maxLength: 40 }, text: { type: 'string' } },
    required: ['id', 'text'],
  },
  encrypted: ['text'],
});

/** Every value of every record of every object store of an IndexedDB database, as JSON text. */
export async function dumpIndexedDb(name: string): Promise<{ stores: string[]; text: string; records: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const stores = Array.from(db.objectStoreNames);
    const chunks: string[] = [];
    let records = 0;
    for (const store of stores) {
      const values = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store, 'readonly').objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      });
      records += values.length;
      chunks.push(JSON.stringify(values, (_k, v: unknown) => (v instanceof Uint8Array ? Array.from(v) : v)));
    }
    return { stores, text: chunks.join('\n'), records };
  } finally {
    db.close();
  }
}

export function listDatabases(): Promise<string[]> {
  return indexedDB.databases().then((all) => all.map((d) => d.name ?? ''));
}

/** A fixed uuid for test documents: `uuid(1)` is the person, `uuid(2)` their resident record, `uuid(3)` their home. */
export const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A signed-in young person, enough to open a replica without a server. */
export const testAccount = {
  success: true,
  user: {
    id: uuid(1), username: 'kid', first_name: 'K', last_name: 'D', email: null, user_type_id: 1,
    user_type: { id: 1, system_name: 'young_person_user', name: 'Young person' }, themes: [], has_photo: false,
    resident: { id: uuid(2), home_id: uuid(3), first_name: 'K', last_name: 'D', preferred_name: null, reward_points: 0, journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 },
  },
  mfa_configured: false, mfa_methods: [], mfa_required: false, permissions: { homes: {} },
} satisfies Account;

/** localStorage, which the data tests' environment lacks, kept in memory. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}
