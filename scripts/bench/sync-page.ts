/**
 * Section a in Chromium: the browser entry ./sync-in-chromium.ts builds and loads from the real
 * server's origin, signed in as jamie. The same measured part as in Node (./sync-replica.ts), on
 * the browser's IndexedDB and WebCrypto, the server in another process.
 */
import { configureRetryPolicy } from '@/api/client';
import { getAccount } from '@/api/users/get-account';
import { syncFreshReplica } from './sync-replica';
import type { ReplicaSync } from './sync-report';

export async function run(documents: number, timeoutMs: number): Promise<ReplicaSync> {
  configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });
  const account = await getAccount();
  if (!account.ok) throw new Error(`GET /v1/auth/user answered ${account.status}`);
  return syncFreshReplica(account.data, { documents, timeoutMs });
}
