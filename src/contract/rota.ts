import { z } from 'zod';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema } from './sync';

/**
 * GET /v1/rotas/staff-roster?date=yyyy-MM-dd&parent_project_ids[0]=<home id>&with[0]=user
 * One row per shift; a young person sees only their own home's roster.
 */
export const rosterItemSchema = syncedRowSchema.extend({
  home_id: z.uuid(),
  user_id: z.uuid(),
  shift_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  starts_at: z.string().regex(/^\d{2}:\d{2}$/),
  ends_at: z.string().regex(/^\d{2}:\d{2}$/),
  user: personSchema,
});
export type RosterItem = z.infer<typeof rosterItemSchema>;
export const rosterPageSchema = pageSchema(rosterItemSchema);
