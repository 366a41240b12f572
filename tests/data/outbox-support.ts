import { IDBFactory } from 'fake-indexeddb';
import { asDataKey, type DataKey } from '@/data/crypto/key-vault';
import type { ReplayOptions, Transport, TransportRequest, TransportResponse } from '@/data/outbox/replay';
import { putWrite } from '@/data/outbox/queue';
import type { WriteInput } from '@/data/outbox/types';

/** A fresh fake IndexedDB and a unique outbox database per test. */
let n = 0;
export function freshStore(): { indexedDB: IDBFactory; databaseName: string } {
  n += 1;
  return { indexedDB: new IDBFactory(), databaseName: `outbox-test-${n}-${Math.random().toString(36).slice(2)}` };
}

export function testKey(): DataKey {
  return asDataKey(crypto.getRandomValues(new Uint8Array(32)));
}

export interface Sent {
  request: TransportRequest;
  /** The multipart body's entries, or the JSON text. */
  entries: [string, string | { name: string; type: string; text: string }][] | null;
  json: string | null;
}

/** A fake server: answers from a script (status, body), records what arrived. */
export function fakeTransport(answer: (request: TransportRequest, index: number) => TransportResponse | Promise<TransportResponse>) {
  const sent: Sent[] = [];
  let token: string | null = 'csrf-token';
  const transport: Transport = {
    csrfToken: async () => token,
    async send(request) {
      let entries: Sent['entries'] = null;
      let json: string | null = null;
      if (typeof request.body === 'string') json = request.body;
      else {
        entries = [];
        for (const [name, value] of request.body.entries()) {
          if (typeof value === 'string') entries.push([name, value]);
          else entries.push([name, { name: (value as File).name, type: value.type, text: await value.text() }]);
        }
      }
      const index = sent.length;
      sent.push({ request, entries, json });
      return answer(request, index);
    },
  };
  return {
    transport,
    sent,
    setToken(value: string | null) {
      token = value;
    },
  };
}

export const ok = (): TransportResponse => ({ status: 200, body: { success: true, data: {} } });

export function replayOptions(store: ReturnType<typeof freshStore>, key: DataKey, transport: Transport, extra: Partial<ReplayOptions> = {}): ReplayOptions {
  return { ...store, getKey: async () => key, transport, ...extra };
}

export function entryWrite(overrides: Partial<WriteInput> = {}): WriteInput {
  return {
    method: 'POST',
    path: '/v1/projects/residents/journal/entries',
    fields: { description: 'hello', reaction: null },
    idempotencyKey: crypto.randomUUID(),
    local: { collection: 'feedback', id: crypto.randomUUID() },
    label: 'Journal entry',
    topics: ['journal'],
    failureMessage: 'There was an error posting your entry',
    ...overrides,
  };
}

export async function enqueue(store: ReturnType<typeof freshStore>, key: DataKey, input: WriteInput, now?: () => number) {
  return putWrite({ ...store, apiBase: '/api', now }, key, input);
}

/** Every value in every object store of a database, structured-cloned out. */
export async function dumpDatabase(factory: IDBFactory, name: string): Promise<unknown[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const values: unknown[] = [];
  for (const storeName of Array.from(db.objectStoreNames)) {
    values.push(
      ...(await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(storeName).objectStore(storeName).getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error);
      })),
    );
  }
  db.close();
  return values;
}
