import type { FieldErrors } from '../../src/contract/envelope';

/**
 * An expected failure with its HTTP answer. Handlers throw it; plugins/errors.ts turns it into
 * `{success:false, message, errors?}` with the status and headers given here.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
