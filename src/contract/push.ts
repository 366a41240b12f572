import { z } from 'zod';
import type { EntryKind } from './entry-kind';
import { PUSH_BODY_MAX_LENGTH, PUSH_TITLE_MAX_LENGTH, PUSH_URL_MAX_LENGTH, PUSH_URL_PATTERN, pushNotificationBody } from './push-notice';
import { SYNC_TOPICS, type SyncTopic } from './sync';

export { PUSH_URL_MAX_LENGTH, pushNotificationBody } from './push-notice';

export const pushMessages = {
  endpointHttps: 'The push endpoint must be an https address',
  /** The server refuses an endpoint that is not one of its allowed push services (PUSH_SERVICE_HOSTS). */
  endpointNotAllowed: 'This push service is not allowed',
  keyFormat: 'Must be base64url',
} as const;

/** Printable characters only: an address never holds spaces, controls or NUL. */
const endpointText = z.string().max(2000).regex(/^[\x21-\x7e]+$/, { error: pushMessages.endpointHttps });
const base64Url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: pushMessages.keyFormat });

// POST /v1/notifications/push/subscribe (SPEC §3 push subscription: user_id, subscription)
// Which push services the server accepts is its own setting (docs/api.md); the shape is checked here.
export const pushSubscriptionSchema = z.object({
  endpoint: endpointText.pipe(z.url({ protocol: /^https$/, error: pushMessages.endpointHttps })),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64Url(200), auth: base64Url(100) }),
});
export const pushSubscribeRequestSchema = z.object({ user_id: z.uuid(), subscription: pushSubscriptionSchema });
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

// POST /v1/notifications/push/unsubscribe (addition: logout removes the subscription, SPEC §4)
export const pushUnsubscribeRequestSchema = z.object({ endpoint: endpointText });

/**
 * What a push message carries (addition): never personal content, so nothing readable passes
 * through the browser vendor's push service or shows on a lock screen.
 * - `type` and `collections` (since issue 3): which replicated collections changed; the service
 *   worker re-syncs them (sw/sw.ts). A worker that knows only these two fields keeps working.
 * - `url` (issue 10): the app screen a click on the notification opens (a path of this app, with
 *   opaque ids only: `/entries/comments/{entry id}`, `/voice/comments/{entry id}`,
 *   `/objectives/{task log id}`, `/rewards/history`). The worker opens the dashboard instead when
 *   it is missing or the item is gone.
 * - `title` and `body` (issue 10): the neutral notification text, the product name and
 *   "Something new in <product>", so the worker needs no configuration of its own.
 * The worker reads it without zod (./push-notice.ts readPushNotice, the same rules).
 */
/** A path of this app (the rule lives in ./push-notice.ts, zod-free, which the worker uses). */
export const pushUrlSchema = z.string().max(PUSH_URL_MAX_LENGTH).regex(PUSH_URL_PATTERN);
export const pushMessageSchema = z.object({
  type: z.literal('changed'),
  collections: z.array(z.enum(SYNC_TOPICS)).min(1),
  url: pushUrlSchema.optional(),
  title: z.string().max(PUSH_TITLE_MAX_LENGTH).optional(),
  body: z.string().max(PUSH_BODY_MAX_LENGTH).optional(),
});
export type PushMessage = z.infer<typeof pushMessageSchema>;

/** Screens a push opens (SPEC §2 routes), with opaque ids only. */
export const pushUrls = {
  /** A staff reply on a journal entry (`/entries/comments/{id}`) or a voice entry (`/voice/comments/{id}`). */
  entryThread: (kind: EntryKind, entryId: string): string =>
    kind === 'journal' ? `/entries/comments/${encodeURIComponent(entryId)}` : `/voice/comments/${encodeURIComponent(entryId)}`,
  /** A new objective, or staff's comment, answers or completion on one. */
  objective: (taskLogId: string): string => `/objectives/${encodeURIComponent(taskLogId)}`,
  /** Staff approved or denied an exchange. */
  rewardHistory: '/rewards/history',
  /** Staff shared, updated or withdrew a document (issue 11). */
  documents: '/documents',
} as const;

/** A content-free push: the collections to pull, where a click leads, and the neutral text. */
export function changedPushMessage(what: { collections: SyncTopic[]; url?: string }, productName: string): PushMessage {
  return {
    type: 'changed',
    collections: [...new Set(what.collections)],
    ...(what.url ? { url: what.url } : {}),
    title: productName,
    body: pushNotificationBody(productName),
  };
}
