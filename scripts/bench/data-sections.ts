/**
 * Benchmark sections that run the data layer (src/data) in Node on fake-indexeddb. Loaded by
 * run.ts through Vite's module runner (`import.meta.env` and the `@` alias, as in vitest).
 * Each section is self-contained: it opens and closes everything it uses.
 */
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { configureRetryPolicy } from '@/api/client';
import { setApiBase } from '@/api/base-address';
import { getAccount } from '@/api/users/get-account';
import { asDataKey, type DataKey } from '@/data/crypto/key-vault';
import { benchEncryption, benchReport } from './bench-encryption';
import { closeReplica, openReplica, wipeReplica } from '@/data/replica/lifecycle';
import { applyLocalChange } from '@/data/replica/local-writes';
import type { CalendarDoc } from '@/data/replica/types';
import { startTestServer } from '../../tests/server/support/server';
import { quantile } from './quantile';
import { seedCalendarInstances } from './seed-calendar';
import { syncFreshReplica, within } from './sync-replica';
import { syncReport } from './sync-report';

const fakeIdb = { indexedDB, IDBKeyRange };
const randomKey = (): DataKey => asDataKey(crypto.getRandomValues(new Uint8Array(32)));
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

// ---------------------------------------------------------------------------------------------
// a. Initial sync of 5,000 calendar instances from the real server into a fresh encrypted replica

export type SyncResult = ReturnType<typeof syncReport>;

export async function syncBench(options: { documents?: number; timeoutMs?: number } = {}): Promise<SyncResult> {
  const documents = options.documents ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const server = await startTestServer();
  const original = globalThis.fetch;
  try {
    // A signed-in client of the real login; its cookies go with every request src/api makes.
    const client = server.client();
    const login = await client.login('jamie', 'hearth-demo-1', 'demo');
    if (login.status !== 200) throw new Error(`login answered ${login.status}`);
    globalThis.fetch = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.origin !== server.base) throw new Error(`bench: refusing a request to ${url.origin}`);
      const headers = new Headers(init?.headers);
      if (client.jar.size > 0) headers.set('cookie', [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '));
      return original(url, { ...init, headers, credentials: undefined });
    };
    setApiBase(`${server.base}/api`);
    configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });
    const account = await getAccount();
    if (!account.ok) throw new Error(`GET /v1/auth/user answered ${account.status}`);
    const residentId = account.data.user.resident?.id;
    if (!residentId) throw new Error('jamie has no resident record');
    await seedCalendarInstances(server, residentId, documents);
    return syncReport(documents, await syncFreshReplica(account.data, { ...fakeIdb, documents, timeoutMs }));
  } finally {
    globalThis.fetch = original;
    setApiBase('/api');
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// b. Encrypted vs unencrypted insert and query of 1,000 documents

export async function encryptionBench() {
  const result = await within(benchEncryption({ ...fakeIdb, key: randomKey(), documents: 1_000, repeats: 3 }), 300_000, 'encryption bench');
  return benchReport(result, 'best of 3 alternating runs after a warm-up, fake-indexeddb');
}

// ---------------------------------------------------------------------------------------------
// c. Local write → reactive query emission (the calendar hook's query, encrypted replica)

export async function reactiveBench(options: { writes?: number; seeded?: number } = {}) {
  const writes = Math.min(options.writes ?? 50, 500);
  const seeded = options.seeded ?? 1_000;
  const open = await openReplica(
    { userId: `bench-user-${Date.now().toString(36)}`, site: 'bench', residentId: null, homeId: null, homeIds: [] },
    null,
    { ...fakeIdb, multiInstance: false, key: randomKey(), replicate: false },
  );
  try {
    const residentId = crypto.randomUUID();
    const eventBase = { id: crypto.randomUUID(), description: 'Football practice at the park', location: 'Park', event_type_id: crypto.randomUUID() };
    const doc = (i: number, date: string): CalendarDoc => ({
      id: crypto.randomUUID(),
      updated_at: new Date().toISOString(),
      resident_id: residentId,
      start_date: date,
      start_time: '10:00',
      end_date: date,
      end_time: '11:00',
      sort_key: `${date}T10:00`,
      event: { ...eventBase, title: `Event ${i}` },
      sync_state: 'synced',
      sync_message: null,
      sync_outbox_id: null,
    });
    const day = (offset: number) => new Date(Date.UTC(2030, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
    await open.db.calendar.bulkInsert(Array.from({ length: seeded }, (_, i) => doc(i, day(1 + (i % 365)))));

    // The upcoming-calendar query of src/data/hooks (first page of 10, plus one to know "more").
    const query = open.db.calendar.find({ selector: { start_date: { $gte: day(0) } }, sort: [{ sort_key: 'asc' }], limit: 11 });
    let latest: readonly CalendarDoc[] = [];
    const sub = query.$.subscribe((docs) => {
      latest = docs.map((d) => d.toJSON() as unknown as CalendarDoc);
    });
    const emitted = (check: (docs: readonly CalendarDoc[]) => boolean) =>
      firstValueFrom(query.$.pipe(filter((docs) => check(docs.map((d) => d.toJSON() as unknown as CalendarDoc))), timeout(10_000)));
    await emitted((docs) => docs.length === 11);

    const updates: number[] = [];
    const inserts: number[] = [];
    const deadline = performance.now() + 120_000;
    try {
      for (let i = 0; i < writes && performance.now() < deadline; i++) {
        // Update: an entry already on screen gets a new title (applyLocalChange, the outbox's door).
        const target = latest[i % 10] as CalendarDoc;
        const title = `Edited ${i}`;
        const t0 = performance.now();
        const seen = emitted((docs) => docs.some((d) => d.id === target.id && d.event.title === title));
        await applyLocalChange('calendar', target.id, { event: { ...target.event, title } }, { state: 'pending', message: null, outbox_id: `ob-${i}` });
        await seen;
        updates.push(performance.now() - t0);

        // Insert: a new entry that sorts before every other one (earlier time each round).
        const minutes = 23 * 60 + 59 - i;
        const fresh = doc(seeded + i, day(0));
        fresh.sort_key = `${day(0)}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        const t1 = performance.now();
        const arrived = emitted((docs) => docs.some((d) => d.id === fresh.id));
        await applyLocalChange('calendar', fresh.id, { ...fresh }, { state: 'pending', message: null, outbox_id: `ob-new-${i}` });
        await arrived;
        inserts.push(performance.now() - t1);
      }
    } finally {
      sub.unsubscribe();
    }
    const summary = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return { samples: samples.length, medianMs: round(quantile(sorted, 0.5), 2), p95Ms: round(quantile(sorted, 0.95), 2), maxMs: round(sorted[sorted.length - 1] ?? Number.NaN, 2) };
    };
    return { collectionSize: seeded, query: 'calendar: start_date >= today, sort sort_key, limit 11', update: summary(updates), insert: summary(inserts) };
  } finally {
    await closeReplica();
    await wipeReplica(open.name, { ...fakeIdb, multiInstance: false }).catch(() => undefined);
  }
}
