import type { Result } from '@/api/result';
import { pushSubscribeRequestSchema } from '@/contract/push';
import { enqueueWrite, newIdempotencyKey } from '@/data/outbox/outbox';

export const PUSH_UNAVAILABLE = 'Notifications are not available yet.';
export const PUSH_NOT_ALLOWED = 'Notifications are switched off for Hearth in this browser.';

/**
 * The VAPID public key (base64url). The server does not expose one yet: until it does (an app
 * config field or VITE_VAPID_PUBLIC_KEY at build time), subscribing is a no-op with a reason.
 */
function vapidPublicKey(): string | null {
  const key = (import.meta.env as Record<string, string | undefined>).VITE_VAPID_PUBLIC_KEY;
  return key && key.trim() ? key.trim() : null;
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Only when the person opts in: asks the browser for a push subscription and sends
 * POST /v1/notifications/push/subscribe `{user_id, subscription}` through the outbox.
 */
export async function subscribeToPush(userId: string, key: string | null = vapidPublicKey()): Promise<Result<{ outboxId: string }>> {
  if (!key) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const container = globalThis.navigator?.serviceWorker;
  if (!container || typeof Notification === 'undefined') return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, status: 0, message: PUSH_NOT_ALLOWED };
  const registration = await container.ready;
  if (!registration.pushManager) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(key) }));
  } catch {
    return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  }
  const parsed = pushSubscribeRequestSchema.safeParse({ user_id: userId, subscription: subscription.toJSON() });
  if (!parsed.success) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const outboxId = newIdempotencyKey();
  await enqueueWrite({
    method: 'POST',
    path: '/v1/notifications/push/subscribe',
    json: parsed.data,
    idempotencyKey: outboxId,
    local: null,
    label: 'Notifications',
    failureMessage: PUSH_UNAVAILABLE,
  });
  return { ok: true, status: 202, data: { outboxId } };
}
