import { devMailboxResponseSchema, type DevMail } from '@/contract/app-config';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** GET /api/dev/mailbox (development mode only): the mail the server would have sent. */
export async function getDevMailbox(): Promise<Result<DevMail[]>> {
  const result = await request(paths.devMailbox.build(), { base: '/api', schema: devMailboxResponseSchema, skipSessionHandling: true });
  return result.ok ? { ...result, data: result.data.data } : result;
}
