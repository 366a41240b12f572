import { z } from 'zod';
import { SYNC_TOPICS } from './sync';

// POST /v1/notifications/push/subscribe (SPEC §3 push subscription: user_id, subscription)
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export const pushSubscribeRequestSchema = z.object({ user_id: z.uuid(), subscription: pushSubscriptionSchema });
export type PushSubscribeRequest = z.infer<typeof pushSubscribeRequestSchema>;

// POST /v1/notifications/push/unsubscribe (addition: logout removes the subscription, SPEC §4)
export const pushUnsubscribeRequestSchema = z.object({ endpoint: z.string().min(1).max(2000) });

/**
 * What a push message carries (addition): only which collections changed, never personal content,
 * so nothing readable passes through the browser vendor's push service or shows on a lock screen.
 * The service worker re-syncs those collections (sw/sw.ts).
 */
export const pushMessageSchema = z.object({ type: z.literal('changed'), collections: z.array(z.enum(SYNC_TOPICS)).min(1) });
export type PushMessage = z.infer<typeof pushMessageSchema>;

/** Sent to a young person's browsers when staff reply on one of their entries. */
export const REPLY_PUSH_MESSAGE: PushMessage = { type: 'changed', collections: ['feedback'] };

/** Sent to a young person's browsers when staff set, fill or comment on one of their objectives. */
export const TASKS_PUSH_MESSAGE: PushMessage = { type: 'changed', collections: ['tasks'] };

/** Sent to a young person's browsers when staff share, update or withdraw a document for them (issue 11). */
export const DOCUMENTS_PUSH_MESSAGE: PushMessage = { type: 'changed', collections: ['documents'] };
