import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** POST /auth/logout. The answer's body does not matter: signing out locally happens anyway. */
export async function logout(): Promise<Result<null>> {
  const result = await request(paths.logout.build(), { method: 'POST', skipSessionHandling: true });
  return result.ok ? { ...result, data: null } : result;
}
