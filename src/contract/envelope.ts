import { z } from 'zod';

/** Field errors keyed by the request field name (dots for nested fields), Laravel style. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** Every error answer of the API: `success: false`, a readable message, and field errors for 422. */
export const errorBodySchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: fieldErrorsSchema.optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The `data/success/message` envelope of SPEC §7. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string().optional(), data });
