/**
 * What the service worker tells open pages about the requests its replays of the outbox make, so
 * that a Wi-Fi that reaches nothing is noticed (and its end too) when the worker, not the page, is
 * the one sending (src/api/reachability.ts counts it; src/data/outbox/worker-reach.ts listens).
 * Shared by the worker and the page, so it imports nothing.
 *
 * The address is the request's, absolute: a page counts only requests to its own server.
 */
export const REACH_MESSAGE = 'outbox:reach';

export interface ReachMessage {
  readonly type: typeof REACH_MESSAGE;
  readonly url: string;
  /** true: an HTTP answer, whatever its status; false: the network failed or no answer came in time. */
  readonly answered: boolean;
}

export const reachMessage = (url: string, answered: boolean): ReachMessage => ({ type: REACH_MESSAGE, url, answered });

/** The message, or null for anything else: another message on the channel, or a malformed one. */
export function readReachMessage(data: unknown): ReachMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, url, answered } = data as Partial<Record<keyof ReachMessage, unknown>>;
  if (type !== REACH_MESSAGE || typeof url !== 'string' || typeof answered !== 'boolean') return null;
  return reachMessage(url, answered);
}
