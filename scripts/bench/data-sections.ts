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
import { benchEncryption } from './bench-encryption';
import { closeReplica, openReplica, openReplicaForAccount, wipeReplica } from '@/data/replica/lifecycle';
import { applyLocalChange } from '@/data/replica/local-writes';
import { startReplication } from '@/data/replication/controller';
import { calendarReplication } from '@/data/replication/endpoints';
import { DEFAULT_PER_PAGE } from '@/data/replication/pull';
import type { CalendarDoc } from '@/data/replica/types';
import { startTestServer } from '../../tests/server/support/server';
import { quantile } from './quantile';

const fakeIdb = { indexedDB, IDBKeyRange };
const randomKey = (): DataKey => asDataKey(crypto.getRandomValues(new Uint8Array(32)));
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Rejects after `ms` (every awaited step of a section is bounded). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// a. Initial sync of 5,000 calendar instances from the real server into a fresh encrypted replica

export interface SyncResult {
  documents: number;
  calendarDocuments: number;
  ms: number;
  docsPerSecond: number;
  requests: number;
  calendarRequests: number;
  responseBytes: number;
  perPage: number;
}

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
    let counting = false;
    let requests = 0;
    let calendarRequests = 0;
    let responseBytes = 0;
    globalThis.fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.origin !== server.base) throw new Error(`bench: refusing a request to ${url.origin}`);
      const headers = new Headers(init?.headers);
      if (client.jar.size > 0) headers.set('cookie', [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '));
      const response = await original(url, { ...init, headers, credentials: undefined });
      if (counting) {
        requests += 1;
        if (url.pathname.endsWith('/instances')) calendarRequests += 1;
        const length = Number(response.headers.get('content-length'));
        responseBytes += Number.isFinite(length) && response.headers.has('content-length') ? length : (await response.clone().arrayBuffer()).byteLength;
      }
      return response;
    };
    setApiBase(`${server.base}/api`);
    configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });
    const account = await getAccount();
    if (!account.ok) throw new Error(`GET /v1/auth/user answered ${account.status}`);
    const residentId = account.data.user.resident?.id;
    if (!residentId) throw new Error('jamie has no resident record');

    // 5,000 instances of one of jamie's events, straight into the database.
    const sample = await server.db
      .selectFrom('event_instances')
      .select(['event_id', 'tenant_id'])
      .where('resident_id', '=', residentId)
      .limit(1)
      .executeTakeFirstOrThrow();
    const day0 = Date.UTC(2025, 0, 1);
    for (let start = 0; start < documents; start += 500) {
      const rows = Array.from({ length: Math.min(500, documents - start) }, (_, j) => {
        const i = start + j;
        const date = new Date(day0 + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
        const hour = String(8 + (i % 4) * 3).padStart(2, '0');
        return {
          tenant_id: sample.tenant_id,
          event_id: sample.event_id,
          resident_id: residentId,
          start_date: date,
          start_time: `${hour}:00`,
          end_date: date,
          end_time: `${hour}:45`,
        };
      });
      await server.db.insertInto('event_instances').values(rows).execute();
    }

    const open = await openReplicaForAccount(account.data, `bench-${Date.now().toString(36)}`, {
      ...fakeIdb,
      multiInstance: false,
      key: randomKey(),
      replicate: false,
    });
    // The app's own page sizes (src/data/replication/endpoints.ts), not a bench setting.
    const calendar = calendarReplication(residentId).config;
    const perPage = (calendar.kind === 'pages' ? calendar.perPage : undefined) ?? DEFAULT_PER_PAGE;
    counting = true;
    const t0 = performance.now();
    const handle = startReplication(open, { liveTriggers: false, retryTime: 200, periodicMs: 0 });
    try {
      await within(handle.awaitInitial(), timeoutMs, 'initial sync');
      await within(handle.awaitInSync(), timeoutMs, 'in sync');
      const ms = performance.now() - t0;
      counting = false;
      const calendarDocuments = await open.db.calendar.count().exec();
      if (calendarDocuments < documents) throw new Error(`only ${calendarDocuments} calendar documents after the sync`);
      return {
        documents,
        calendarDocuments,
        ms: round(ms),
        docsPerSecond: round((calendarDocuments / ms) * 1000, 0),
        requests,
        calendarRequests,
        responseBytes,
        perPage,
      };
    } finally {
      await handle.stop();
      await closeReplica();
      await wipeReplica(open.name, { ...fakeIdb, multiInstance: false }).catch(() => undefined);
    }
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
  const ms = (t: { insertMs: number; queryMs: number; coldQueryMs: number }) => ({
    insertMs: round(t.insertMs),
    queryMs: round(t.queryMs),
    queryAfterReopenMs: round(t.coldQueryMs),
  });
  return {
    documents: result.documents,
    plain: ms(result.plain),
    encrypted: ms(result.encrypted),
    ratio: {
      insert: round(result.ratio.insert, 2),
      query: round(result.ratio.query, 2),
      queryAfterReopen: round(result.ratio.coldQuery, 2),
      total: round(result.ratio.total, 2),
    },
    method: 'best of 3 alternating runs after a warm-up, fake-indexeddb',
  };
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
