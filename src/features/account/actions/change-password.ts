import type { ChangePasswordRequest } from '@/contract/users';
import { changePassword as putChangePassword } from '@/api/users/change-password';
import type { Result } from '@/api/result';

/** PUT /v1/users/{id}/change-password. Needs the network: it is not queued. */
export const changePassword = (userId: string, body: ChangePasswordRequest): Promise<Result<string | undefined>> =>
  putChangePassword(userId, body);
