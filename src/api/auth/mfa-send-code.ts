import { plainSuccessSchema } from '@/contract/auth';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /auth/mfa/send-code: emails a code for a pending two-factor sign-in. */
export async function mfaSendCode(twoFactorId: string): Promise<Result<string | undefined>> {
  const result = await request(paths.mfaSendCode.build(), {
    method: 'POST',
    body: { two_factor_id: twoFactorId },
    schema: plainSuccessSchema,
    skipSessionHandling: true,
  });
  return result.ok ? { ...result, data: result.data.message } : result;
}
