import { messages } from '@/contract/messages';
import type { Failure } from '@/api/result';

/**
 * SPEC §8: a failure with a server message shows that message; without one (network error, a
 * server error, an unreadable answer) it shows "Error connecting to {product}, please try again."
 */
export function failureMessage(failure: Failure, productName: string): string {
  if (failure.status === 0 || failure.status >= 500 || !failure.message) return messages.connectionError(productName);
  return failure.message;
}
