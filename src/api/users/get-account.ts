import { accountSchema, type Account } from '@/contract/users';
import { request } from '../client';
import type { Result } from '../result';

/** GET /v1/auth/user: the signed-in account. */
export const getAccount = (): Promise<Result<Account>> => request('/v1/auth/user', { schema: accountSchema });
