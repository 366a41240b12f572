import { z } from 'zod';
import { utcTimestampSchema } from './calendar-values';

/**
 * Replication additions to SPEC §7's list endpoints (additive; docs/api.md).
 *
 * A client pulls a collection in pages ordered by (updated_at, id). It sends the last row it has
 * as `checkpoint[updated_at]` and `checkpoint[id]`, and receives rows strictly after it. With
 * `with_trashed=1`, soft-deleted rows come too, carrying `deleted_at`: they are tombstones.
 * `updated_at` travels as an ISO-8601 string with microseconds (`2026-11-21T10:15:30.123456Z`) so
 * that a checkpoint never skips or repeats rows that share a millisecond.
 */
export const timestampSchema = utcTimestampSchema();

export const checkpointSchema = z.object({ updated_at: timestampSchema, id: z.string().min(1) });
export type Checkpoint = z.infer<typeof checkpointSchema>;

/** Every replicated row carries these. */
export const syncedRowSchema = z.object({
  id: z.uuid(),
  updated_at: timestampSchema,
  deleted_at: timestampSchema.nullable(),
});

export const MAX_PAGE_SIZE = 1000;

/** Query parameters shared by every list endpoint, after qs-style parsing of `a[b][c]=` keys. */
export const listQuerySchema = z.object({
  /** filters[i] = [field, operator, value]; fields are whitelisted per endpoint. */
  filters: z.array(z.tuple([z.string(), z.string(), z.string()]).or(z.tuple([z.string(), z.string()]))).optional(),
  /** sort[i] = [field, 'asc' | 'desc']. */
  sort: z.array(z.tuple([z.string(), z.enum(['asc', 'desc'])])).optional(),
  relations: z.array(z.string()).optional(),
  search_term: z.string().max(200).optional(),
  checkpoint: checkpointSchema.optional(),
  with_trashed: z.enum(['0', '1']).optional(),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const FILTER_OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'null', 'not_null', 'in'] as const;

/** A page of rows: `meta.checkpoint` is the last row's, `has_more` says whether to ask again now. */
export const pageSchema = <T extends z.ZodType>(row: T) =>
  z.object({
    success: z.literal(true),
    data: z.array(row),
    meta: z.object({ per_page: z.number().int(), has_more: z.boolean(), checkpoint: checkpointSchema.nullable() }),
  });

/** Server-sent event stream `GET /api/v1/sync/stream`: `event: change`, this as data. */
export const changeEventSchema = z.object({ collections: z.array(z.string()) });
export type ChangeEvent = z.infer<typeof changeEventSchema>;

/** Names the server uses in change events and pushes (zod-free, for the service worker too). */
export { SYNC_TOPICS, isSyncTopic, type SyncTopic } from './sync-topics';

/** Sent with every create and update; the server stores the answer and replays it for a repeat. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
