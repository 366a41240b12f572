import type { z } from 'zod';
import { withQuery, type ListQuery } from '@/contract/query-string';
import { request } from '../client';
import type { Result } from '../result';

/**
 * GET one page of a replicated list endpoint (SPEC §7 plus the checkpoint additions of
 * src/contract/sync.ts). `query` carries filters, sort and plain parameters; the caller adds the
 * checkpoint. Never rejects: a failure is a Result (status 0 offline, 401/419 also expire the session).
 */
export function fetchPage<T>(path: string, query: ListQuery, schema: z.ZodType<T>, signal?: AbortSignal): Promise<Result<T>> {
  return request<T>(withQuery(path, query), { schema, signal });
}

/** GET one document (the resident details endpoint is a single document, not a page). */
export function fetchOne<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<Result<T>> {
  return request<T>(path, { schema, signal });
}
