import { z } from 'zod';
import { clientIdSchema } from './entries';
import { personSchema } from './residents';
import { envelope } from './envelope';
import { syncedRowSchema, timestampSchema } from './sync';

export const COMMENT_MAX_LENGTH = 5000;
export const REACTION_MAX_LENGTH = 32;
/** A reply or reaction over its limit, on create and on edit alike. */
export const commentLengthMessages = { comment: 'Comment is too long', reaction: 'Reaction is too long' } as const;

/**
 * POST /v1/projects/residents/journal/entries/comments and .../voices/entries/comments
 * (multipart per SPEC §5; JSON accepted too). SPEC §5: at least one of comment or reaction.
 */
export const commentCreateSchema = z
  .object({
    /** Create only: the client's id for its optimistic copy (see clientIdSchema). */
    id: clientIdSchema,
    entry_id: z.uuid({ error: 'Entry is required' }),
    comment: z.string().trim().max(COMMENT_MAX_LENGTH, { error: commentLengthMessages.comment }).optional(),
    reaction: z.string().trim().max(REACTION_MAX_LENGTH, { error: commentLengthMessages.reaction }).optional(),
  })
  .refine((v) => Boolean(v.comment) || Boolean(v.reaction), { path: ['comment'], error: 'Comment is required' });
export type CommentCreate = z.infer<typeof commentCreateSchema>;

export const commentSchema = syncedRowSchema.extend({
  entry_id: z.uuid(),
  comment: z.string().nullable(),
  reaction: z.string().nullable(),
  created_at: timestampSchema,
  creator: personSchema,
  files: z.array(z.object({ id: z.uuid(), name: z.string(), mime: z.string(), size: z.number().int() })),
});
export type Comment = z.infer<typeof commentSchema>;
export const commentResponseSchema = envelope(commentSchema);
