import { loginResponseSchema, type LoginData, type LoginRequest } from '@/contract/auth';
import { request } from '../client';
import type { Result } from '../result';

/** POST /auth/login */
export async function login(body: LoginRequest): Promise<Result<LoginData>> {
  const result = await request('/auth/login', {
    method: 'POST',
    body,
    schema: loginResponseSchema,
    skipSessionHandling: true,
  });
  return result.ok ? { ...result, data: result.data.data } : result;
}
