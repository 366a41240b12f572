import { z } from 'zod';
import { FEATURE_FLAGS } from './residents';
import { pageSchema, syncedRowSchema } from './sync';

/**
 * Issue 12, staff access audit (docs/api.md): GET /v1/staff/access-log, a manager only. One row per
 * request a member of staff of the manager's homes made to the data API: who, what, when, and how
 * it ended. A checkpoint list like every other (`updated_at` is when the request was answered),
 * newest first by default; filters `user_id`, `resident_id`, `action`, `status`.
 */
export const STAFF_ACCESS_ACTIONS = ['read', 'write'] as const;

const flagValue = z.union([z.literal(0), z.literal(1)]);
/**
 * What a staff write changed where its route and query do not say (docs/decisions.md "Staff changes
 * recorded in detail"): `features`, the flags a features write changed, each with its value before
 * and after (none when it changed nothing); `home`, a move's home before and after (the same id when
 * the young person was already there). Only ids and 0/1 values: never anything a person wrote.
 */
export const staffChangeSchema = z
  .object({
    features: z.partialRecord(z.enum(FEATURE_FLAGS), z.object({ from: flagValue, to: flagValue })),
    home: z.object({ from: z.uuid(), to: z.uuid() }),
  })
  .partial();
export type StaffChange = z.infer<typeof staffChangeSchema>;

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
  /** What the write changed (staffChangeSchema); null for other requests and for refused ones. */
  detail: staffChangeSchema.nullable().optional(),
});
export type StaffAccessRow = z.infer<typeof staffAccessRowSchema>;
export const staffAccessPageSchema = pageSchema(staffAccessRowSchema);

export const staffAccessMessages = {
  managersOnly: 'Only a manager can see who looked at what.',
} as const;
