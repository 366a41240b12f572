import { request } from '../client';
import type { Result } from '../result';

/** GET /v1/files/view?file_id=&module=journal|voice|comment: the file's bytes. */
export const viewFile = (fileId: string, module: 'journal' | 'voice' | 'comment', signal?: AbortSignal): Promise<Result<Blob>> =>
  request<Blob>(`/v1/files/view?file_id=${encodeURIComponent(fileId)}&module=${encodeURIComponent(module)}`, { responseType: 'blob', signal });
