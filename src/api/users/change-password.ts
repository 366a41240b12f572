import { plainSuccessSchema } from '@/contract/auth';
import { paths } from '@/contract/paths';
import type { ChangePasswordRequest } from '@/contract/users';
import { request } from '../client';
import type { Result } from '../result';

/** PUT /v1/users/{id}/change-password */
export async function changePassword(userId: string, body: ChangePasswordRequest): Promise<Result<string | undefined>> {
  const result = await request(paths.changePassword.build(userId), {
    method: 'PUT',
    body,
    schema: plainSuccessSchema,
  });
  return result.ok ? { ...result, data: result.data.message } : result;
}
