import type { EntryKind } from '@/contract/entry-kind';
import { fileViewPath } from '@/contract/paths';
import { request } from '../client';
import type { Result } from '../result';

/** GET /v1/files/view?file_id=&module=journal|voice|comment|task_comment|task_log|reward: the file's bytes. */
export const viewFile = (fileId: string, module: EntryKind | 'comment' | 'task_comment' | 'task_log' | 'reward', signal?: AbortSignal): Promise<Result<Blob>> =>
  request<Blob>(fileViewPath(fileId, module), { responseType: 'blob', signal });
