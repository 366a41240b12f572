import { z } from 'zod';

/** Field errors keyed by the request field name (dots for nested fields), Laravel style. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/**
 * Every error answer of the API: `success: false`, a readable message, and field errors for 422.
 * `data` only where a refusal says what is there instead (an edit conflict's 412: the entry now).
 */
export const errorBodySchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: fieldErrorsSchema.optional(),
  data: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The `data/success/message` envelope of SPEC §7. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string().optional(), data });
