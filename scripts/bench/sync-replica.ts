/**
 * Section a's measured part, run in Node (./data-sections.ts, fake-indexeddb) and in Chromium
 * (./sync-page.ts, its IndexedDB): a fresh encrypted replica of the signed-in account, its
 * replication started as the app starts it after a sign-in, timed until every collection's first
 * pull is written (and, apart, until RxDB calls them in sync).
 */
import type { Account } from '@/contract/users';
import { asDataKey } from '@/data/crypto/key-vault';
import type { HearthStorageOptions } from '@/data/database/create-database';
import { closeReplica, openReplicaForAccount, wipeReplica } from '@/data/replica/lifecycle';
import { calendarReplication } from '@/data/replication/endpoints';
import { startReplication } from '@/data/replication/controller';
import { DEFAULT_PER_PAGE } from '@/data/replication/pull';
import { SIGN_IN_TURNS } from '@/data/replication/in-turn';
import { atOnce } from '@/data/replication/start-when';
import type { ReplicaSync, RequestCount } from './sync-report';

/** Rejects after `ms` (every awaited step of a section is bounded). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** `inner`, counting into `count` the requests made while `counting()` says so. */
export function countingFetch(inner: typeof fetch, counting: () => boolean, count: RequestCount): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (counting()) {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, globalThis.location?.href);
      count.requests += 1;
      if (url.pathname.endsWith('/instances')) count.calendarRequests += 1;
      const length = Number(response.headers.get('content-length'));
      count.responseBytes += Number.isFinite(length) && response.headers.has('content-length') ? length : (await response.clone().arrayBuffer()).byteLength;
    }
    return response;
  };
}

export async function syncFreshReplica(
  account: Account,
  options: HearthStorageOptions & {
    readonly documents: number;
    readonly timeoutMs: number;
  },
): Promise<ReplicaSync> {
  const residentId = account.user.resident?.id;
  if (!residentId) throw new Error('the account has no resident record');
  const storage: HearthStorageOptions = { ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}), ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}) };
  const open = await openReplicaForAccount(account, `bench-${Date.now().toString(36)}`, {
    ...storage,
    multiInstance: false,
    key: asDataKey(crypto.getRandomValues(new Uint8Array(32))),
    replicate: false,
  });
  const calendar = calendarReplication(residentId).config;
  const perPage = (calendar.kind === 'pages' ? calendar.perPage : undefined) ?? DEFAULT_PER_PAGE;
  // The requests of the measured stretch are counted, whatever fetch the caller set up (cookies in Node).
  const count: RequestCount = { requests: 0, calendarRequests: 0, responseBytes: 0 };
  let counting = true;
  const inner = globalThis.fetch;
  globalThis.fetch = countingFetch(inner.bind(globalThis), () => counting, count);
  const t0 = performance.now();
  // At once and in turn, as after a sign-in (src/data/replica/lifecycle.ts): in a page the default waits for the first screen.
  const handle = startReplication(open, { liveTriggers: false, retryTime: 200, periodicMs: 0, startWhen: atOnce, inTurn: SIGN_IN_TURNS });
  try {
    await within(handle.awaitInitial(), options.timeoutMs, 'initial sync');
    const ms = performance.now() - t0;
    counting = false;
    const calendarDocuments = await open.db.calendar.count().exec();
    if (calendarDocuments < options.documents) throw new Error(`only ${calendarDocuments} calendar documents after the sync`);
    // RxDB's "in sync" adds a wait for its database to be idle (an idle callback in a page) to nothing the screens wait for.
    await within(handle.awaitInSync(), options.timeoutMs, 'in sync');
    return { ms, inSyncMs: performance.now() - t0, calendarDocuments, perPage, ...count };
  } finally {
    globalThis.fetch = inner;
    await handle.stop();
    await closeReplica();
    await wipeReplica(open.name, { ...storage, multiInstance: false }).catch(() => undefined);
  }
}
