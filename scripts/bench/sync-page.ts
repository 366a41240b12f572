/**
 * Section a in Chromium: the browser entry ./sync-in-chromium.ts builds and loads from the real
 * server's origin, signed in as jamie. The same measured part as in Node (./sync-replica.ts), on
 * the browser's IndexedDB and WebCrypto, the server in another process.
 */
import { configureRetryPolicy } from '@/api/client';
import { getAccount } from '@/api/users/get-account';
import { countingFetch, syncFreshReplica, type ReplicaSync, type RequestCount } from './sync-replica';

export async function run(documents: number, timeoutMs: number): Promise<ReplicaSync & RequestCount> {
  configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });
  const account = await getAccount();
  if (!account.ok) throw new Error(`GET /v1/auth/user answered ${account.status}`);
  let counting = false;
  const count: RequestCount = { requests: 0, calendarRequests: 0, responseBytes: 0 };
  const original = globalThis.fetch;
  globalThis.fetch = countingFetch(original.bind(globalThis), () => counting, count);
  try {
    const synced = await syncFreshReplica(account.data, {
      documents,
      timeoutMs,
      onStart: () => (counting = true),
      onEnd: () => (counting = false),
    });
    return { ...synced, ...count };
  } finally {
    globalThis.fetch = original;
  }
}
