import type { FieldErrors } from '../../src/contract/envelope';

/**
 * An expected failure with its HTTP answer. Handlers throw it; plugins/errors.ts turns it into
 * `{success:false, message, errors?, data?}` with the status and headers given here. `data` is for
 * the rare refusal that must say what is there instead (an edit conflict's current entry).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers: Record<string, string> = {},
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
