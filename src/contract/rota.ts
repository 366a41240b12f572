import { z } from 'zod';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema } from './sync';
import { calendarDateSchema, clockTimeSchema } from './calendar-values';

/**
 * GET /v1/rotas/staff-roster?date=yyyy-MM-dd&parent_project_ids[0]=<home id>&with[0]=user
 * One row per shift; a young person sees only their own home's roster.
 */
export const rosterItemSchema = syncedRowSchema.extend({
  home_id: z.uuid(),
  user_id: z.uuid(),
  shift_date: calendarDateSchema(),
  starts_at: clockTimeSchema(),
  ends_at: clockTimeSchema(),
  user: personSchema,
});
export type RosterItem = z.infer<typeof rosterItemSchema>;
export const rosterPageSchema = pageSchema(rosterItemSchema);
