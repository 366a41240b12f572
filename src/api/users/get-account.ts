import { paths } from '@/contract/paths';
import { accountSchema, type Account } from '@/contract/users';
import { request } from '../client';
import type { Result } from '../result';

/** GET /v1/auth/user: the signed-in account. */
export const getAccount = (): Promise<Result<Account>> => request(paths.account.build(), { schema: accountSchema });
