import { z } from 'zod';
import { entryKindSchema } from './entries';
import { envelope } from './envelope';
import { personSchema } from './residents';
import { pageSchema, syncedRowSchema, timestampSchema } from './sync';

/** The entry kind (entries.ts `entryKindSchema`), under the name the feedback rows use. */
export const entryTypeSchema = entryKindSchema;
export type EntryType = z.infer<typeof entryTypeSchema>;

/**
 * GET /v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]==&filters[0][2]=journal
 *   &filters[1][0]=locked_at&filters[1][1]=null&filters[2][0]=awaiting_resident_response&filters[2][1]==
 *   &filters[2][2]=1&relations[0]=entry&relations[1]=latest_comment...&sort[0][0]=comment_id&sort[0][1]=desc
 * One row per entry thread with staff comments (SPEC §3 resident feedback item). `comment_id` is the
 * latest comment's id. Sorting by `comment_id` means newest reply first: the server orders by that
 * comment's created_at (ids may be client-made random UUIDs, which carry no time order).
 */
export const feedbackItemSchema = syncedRowSchema.extend({
  type: entryTypeSchema,
  resident_id: z.uuid(),
  entry_id: z.uuid(),
  comment_id: z.uuid(),
  /** Staff comments the young person has not answered yet. */
  count: z.number().int().min(0),
  awaiting_resident_response: z.boolean(),
  locked_at: timestampSchema.nullable(),
  reaction: z.string().nullable(),
  entry: z.object({ id: z.uuid(), excerpt: z.string(), created_at: timestampSchema }),
  category: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  latest_comment: z.object({
    id: z.uuid(),
    comment: z.string(),
    created_at: timestampSchema,
    creator: personSchema,
  }),
});
export type FeedbackItem = z.infer<typeof feedbackItemSchema>;
export const feedbackPageSchema = pageSchema(feedbackItemSchema);

// GET /v1/projects/residents/feedback/counts: items awaiting the young person's response, per type.
export const feedbackCountsSchema = z.object({ journal: z.number().int(), voice: z.number().int() });
export const feedbackCountsResponseSchema = envelope(feedbackCountsSchema);
