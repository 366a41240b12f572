/**
 * Reading a push message (`pushMessageSchema` in ./push.ts) without zod, so the service worker stays
 * small: the same rules, and what the worker falls back to when a field is missing or not allowed.
 * tests/unit/push-notice.test.ts checks that both agree on what they accept.
 */
import { isSyncTopic, type SyncTopic } from './sync-topics';

export const PUSH_URL_MAX_LENGTH = 300;
/** A path of this app: one leading slash (never `//` or `/\`: no other origin), no spaces, controls or query. */
export const PUSH_URL_PATTERN = /^\/(?![/\\])[A-Za-z0-9\-._~%/]*$/;
export const PUSH_TITLE_MAX_LENGTH = 60;
export const PUSH_BODY_MAX_LENGTH = 120;

export const isPushUrl = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= PUSH_URL_MAX_LENGTH && PUSH_URL_PATTERN.test(value);

/** The one notification text (issue 10): it says that something is new, never what. */
export const pushNotificationBody = (productName: string): string => `Something new in ${productName}`;

/** Where a notification leads when its push names no screen, or one that is not allowed. */
export const PUSH_FALLBACK_URL = '/dashboard';
/** The product name the worker shows when a push carries no title (it has no configuration). */
export const PUSH_FALLBACK_TITLE = 'Hearth';

/** What the service worker takes from a push, every field settled. */
export interface PushNotice {
  /** What to pull; null: everything (no payload, not ours, or no topic this build knows). */
  readonly topics: readonly SyncTopic[] | null;
  /** The screen a click opens: the push's `url` when it is a path of this app, else the dashboard. */
  readonly url: string;
  /** Whether `url` came from the push (false: the fallback). */
  readonly named: boolean;
  readonly title: string;
  readonly body: string;
}

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() && value.length <= max ? value : null);

/** `data` is the parsed JSON of the push (or anything else a push service delivered). */
export function readPushNotice(data: unknown): PushNotice {
  const message = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const changed = message.type === 'changed';
  const names = changed && Array.isArray(message.collections) ? message.collections.filter(isSyncTopic) : [];
  const topics = names.length > 0 ? [...new Set(names)] : null;
  const named = changed && isPushUrl(message.url);
  const title = (changed && text(message.title, PUSH_TITLE_MAX_LENGTH)) || PUSH_FALLBACK_TITLE;
  return {
    topics,
    url: named ? (message.url as string) : PUSH_FALLBACK_URL,
    named,
    title,
    body: (changed && text(message.body, PUSH_BODY_MAX_LENGTH)) || pushNotificationBody(title),
  };
}

/**
 * A notification click (sw/push.ts) asks an open Hearth window to show a screen with
 * `{ type: OPEN_SCREEN_MESSAGE, url }` and a port to answer on; a window that answers routes there
 * itself (src/app/shell/notification-opener.tsx), any other is navigated by the worker.
 */
export const OPEN_SCREEN_MESSAGE = 'hearth:open-screen';
/**
 * `?from=notification` on the screen a notification opens: a screen whose item is gone then takes
 * the person to the dashboard instead of its not-found state (src/components/use-leave-when-gone.ts).
 */
export const OPENED_FROM_PARAM = 'from';
export const OPENED_FROM_NOTIFICATION = 'notification';
