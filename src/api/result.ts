import type { FieldErrors } from '@/contract/envelope';

/** Expected failures are values: every API call resolves to a Result, it never rejects. */
export type Failure = {
  ok: false;
  /** HTTP status; 0 when the network failed (offline, DNS, CORS, aborted). */
  status: number;
  /** The server's message, or '' when it gave none (network error, unreadable body). */
  message: string;
  errors?: FieldErrors;
};
export type Success<T> = { ok: true; status: number; data: T };
export type Result<T> = Success<T> | Failure;

/** The first message for a field of a 422 answer, if any. */
export const fieldError = (failure: Failure, field: string): string | undefined => failure.errors?.[field]?.[0];
