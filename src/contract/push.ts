import { z } from 'zod';

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
