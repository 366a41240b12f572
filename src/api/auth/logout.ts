import { request } from '../client';
import type { Result } from '../result';

/** POST /auth/logout. The answer's body does not matter: signing out locally happens anyway. */
export async function logout(): Promise<Result<null>> {
  const result = await request('/auth/logout', { method: 'POST', skipSessionHandling: true });
  return result.ok ? { ...result, data: null } : result;
}
