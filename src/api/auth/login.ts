import { loginResponseSchema, type LoginData, type LoginRequest } from '@/contract/auth';
import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /auth/login */
export async function login(body: LoginRequest): Promise<Result<LoginData>> {
  const result = await request(paths.login.build(), {
    method: 'POST',
    body,
    schema: loginResponseSchema,
    skipSessionHandling: true,
  });
  return result.ok ? { ...result, data: result.data.data } : result;
}
