import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /v1/notifications/push/unsubscribe `{endpoint}` (logout, online, best effort). */
export async function unsubscribePush(endpoint: string): Promise<Result<null>> {
  const result = await request(paths.pushUnsubscribe.build(), {
    method: 'POST',
    body: { endpoint },
    skipSessionHandling: true,
    timeoutMs: 5_000,
  });
  return result.ok ? { ...result, data: null } : result;
}
