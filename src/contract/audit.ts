import { z } from 'zod';
import { pageSchema, syncedRowSchema } from './sync';

/**
 * Issue 12, staff access audit (docs/api.md): GET /v1/staff/access-log, a manager only. One row per
 * request a member of staff of the manager's homes made to the data API: who, what, when, and how
 * it ended. A checkpoint list like every other (`updated_at` is when the request was answered),
 * newest first by default; filters `user_id`, `resident_id`, `action`, `status`.
 */
export const STAFF_ACCESS_ACTIONS = ['read', 'write'] as const;

export const staffAccessRowSchema = syncedRowSchema.extend({
  user: z.object({ id: z.uuid(), first_name: z.string(), last_name: z.string() }),
  resident_id: z.uuid().nullable(),
  action: z.enum(STAFF_ACCESS_ACTIONS),
  method: z.string(),
  /** The route's pattern below the API base, e.g. `/v1/journal/entries/:id`. */
  route: z.string(),
  /** The path parameters and query of the request. */
  target: z.object({ params: z.record(z.string(), z.unknown()), query: z.record(z.string(), z.unknown()) }).partial(),
  status: z.number().int(),
});
export type StaffAccessRow = z.infer<typeof staffAccessRowSchema>;
export const staffAccessPageSchema = pageSchema(staffAccessRowSchema);

export const staffAccessMessages = {
  managersOnly: 'Only a manager can see who looked at what.',
} as const;
