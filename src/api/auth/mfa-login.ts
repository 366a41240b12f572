import { plainSuccessSchema, type MfaLoginRequest } from '@/contract/auth';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /auth/mfa/login: the second factor; on success the session is signed in. */
export async function mfaLogin(body: MfaLoginRequest): Promise<Result<null>> {
  const result = await request(paths.mfaLogin.build(), {
    method: 'POST',
    body,
    schema: plainSuccessSchema,
    skipSessionHandling: true,
  });
  return result.ok ? { ...result, data: null } : result;
}
