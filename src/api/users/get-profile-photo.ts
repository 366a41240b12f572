import { request } from '../client';
import type { Result } from '../result';

/** GET /v1/users/profile/photo/{id}: image bytes. */
export const getProfilePhoto = (userId: string, signal?: AbortSignal): Promise<Result<Blob>> =>
  request<Blob>(`/v1/users/profile/photo/${encodeURIComponent(userId)}`, { responseType: 'blob', signal });
