import { plainSuccessSchema } from '@/contract/auth';
import type { ChangePasswordRequest } from '@/contract/users';
import { request } from '../client';
import type { Result } from '../result';

/** PUT /v1/users/{id}/change-password */
export async function changePassword(userId: string, body: ChangePasswordRequest): Promise<Result<string | undefined>> {
  const result = await request(`/v1/users/${encodeURIComponent(userId)}/change-password`, {
    method: 'PUT',
    body,
    schema: plainSuccessSchema,
  });
  return result.ok ? { ...result, data: result.data.message } : result;
}
