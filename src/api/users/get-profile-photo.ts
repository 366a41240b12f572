import { request } from '../client';
import type { Result } from '../result';
import { paths } from '@/contract/paths';

/** GET /v1/users/profile/photo/{id}: image bytes. */
export const getProfilePhoto = (userId: string, signal?: AbortSignal): Promise<Result<Blob>> =>
  request<Blob>(paths.profilePhoto.build(userId), { responseType: 'blob', signal });
