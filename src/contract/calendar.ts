import { z } from 'zod';
import { pageSchema, syncedRowSchema } from './sync';
import { calendarDateSchema, clockTimeSchema } from './calendar-values';

const date = calendarDateSchema();
const time = clockTimeSchema();

// GET /v1/events/types
export const eventTypeSchema = syncedRowSchema.extend({ name: z.string() });
export type EventType = z.infer<typeof eventTypeSchema>;
export const eventTypesPageSchema = pageSchema(eventTypeSchema);

/**
 * GET /v1/residents/{id}/instances?start_date=yyyy-MM-dd (plus the sync parameters).
 * SPEC §3 calendar entry: dates and times, and the event with title, description, event_type_id.
 * `start_time`/`end_time` are null for all-day entries.
 */
export const calendarInstanceSchema = syncedRowSchema.extend({
  resident_id: z.uuid(),
  start_date: date,
  start_time: time.nullable(),
  end_date: date,
  end_time: time.nullable(),
  event: z.object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    location: z.string().nullable(),
    event_type_id: z.uuid(),
  }),
});
export type CalendarInstance = z.infer<typeof calendarInstanceSchema>;
export const calendarPageSchema = pageSchema(calendarInstanceSchema);
