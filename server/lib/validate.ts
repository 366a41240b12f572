import type { z } from 'zod';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { FieldErrors } from '../../src/contract/envelope';
import { HttpError } from './http-errors';

/**
 * Zod issues as Laravel-style field errors keyed by dot path. Only the first problem of a field is
 * kept (like Laravel's `bail`): "required" and "must be 6 digits" together would only confuse.
 */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= [issue.message];
  }
  return errors;
}

/** Parses request input with a contract schema or throws a 422 with field errors. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(422, chosen.validationFailed, fieldErrors(result.error));
  return result.data;
}
