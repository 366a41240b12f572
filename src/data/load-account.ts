import type { Account } from '@/contract/users';
import { getAccount } from '@/api/users/get-account';
import type { Result } from '@/api/result';
import { setAccount } from './session-store';

/** GET /v1/auth/user and keep it on the device. The type check happens in the auth guard. */
export async function loadAccount(): Promise<Result<Account>> {
  const result = await getAccount();
  if (result.ok) setAccount(result.data);
  return result;
}
