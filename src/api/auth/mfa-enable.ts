import { mfaEnableResponseSchema, type MfaEnableData, type MfaEnableRequest } from '@/contract/auth';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /auth/mfa/enable: without a code it starts a method, with a code it confirms it. */
export async function mfaEnable(body: MfaEnableRequest): Promise<Result<MfaEnableData>> {
  const result = await request(paths.mfaEnable.build(), { method: 'POST', body, schema: mfaEnableResponseSchema });
  return result.ok ? { ...result, data: result.data.data } : result;
}
