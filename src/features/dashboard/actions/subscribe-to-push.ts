import type { Result } from '@/api/result';
import { base64UrlToBytes } from '@/contract/base64';
import { paths } from '@/contract/paths';
import { getAppConfigSnapshot, loadAppConfig } from '@/data/app-config-store';
import { enqueueWrite, newIdempotencyKey } from '@/data/outbox/outbox';

export const PUSH_UNAVAILABLE = 'Notifications are not available yet.';
export const PUSH_NOT_ALLOWED = 'Notifications are switched off for Hearth in this browser.';

export const PUSH_SUBSCRIBED = 'Done! You will get a notification when staff reply.';
/** The browser's push service refused or could not be reached (no network, a browser without one). */
export const PUSH_SUBSCRIBE_FAILED = 'Hearth could not turn on notifications in this browser just now. Please try again later.';

/** A push service that never answers must not leave the button spinning. */
const SUBSCRIBE_TIMEOUT_MS = 30_000;

function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The push service did not answer')), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The server's VAPID public key (base64url) from GET /api/app-config; null when it has none. */
export async function pushPublicKey(): Promise<string | null> {
  await loadAppConfig();
  const key = getAppConfigSnapshot().push_public_key;
  return key && key.trim() ? key.trim() : null;
}

/**
 * Whether to offer notifications at all: the browser can do push, the person has not blocked them,
 * the server has a key, and this browser is not subscribed already. Never asks for permission.
 */
export async function canOfferPush(publicKey: string | null): Promise<boolean> {
  if (!publicKey) return false;
  if (typeof Notification === 'undefined' || !('PushManager' in globalThis)) return false;
  if (Notification.permission === 'denied') return false;
  const container = globalThis.navigator?.serviceWorker;
  if (!container) return false;
  try {
    const registration = await container.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    return !(subscription && Notification.permission === 'granted');
  } catch {
    return false;
  }
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((value, i) => value === b[i]);
}

/** The browser's subscription for this server's key: an old one made with another key is replaced. */
async function subscriptionFor(manager: PushManager, applicationServerKey: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  const existing = await manager.getSubscription();
  if (existing && sameKey(existing.options?.applicationServerKey, applicationServerKey)) return existing;
  await existing?.unsubscribe();
  return manager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

/**
 * Only when the person opts in (a button press: the browser asks for permission here): asks the
 * browser for a push subscription with the server's VAPID key and sends
 * POST /v1/notifications/push/subscribe `{user_id, subscription}` through the outbox.
 */
export async function subscribeToPush(userId: string, publicKey?: string | null): Promise<Result<{ outboxId: string }>> {
  const key = publicKey === undefined ? await pushPublicKey() : publicKey;
  if (!key) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const container = globalThis.navigator?.serviceWorker;
  if (!container || typeof Notification === 'undefined') return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, status: 0, message: PUSH_NOT_ALLOWED };
  const registration = await container.ready;
  if (!registration.pushManager) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  let subscription: PushSubscription;
  try {
    subscription = await withinTime(subscriptionFor(registration.pushManager, base64UrlToBytes(key)), SUBSCRIBE_TIMEOUT_MS);
  } catch {
    return { ok: false, status: 0, message: PUSH_SUBSCRIBE_FAILED };
  }
  // The contract's schema (zod) loads with the tap, not with the dashboard (issue 13).
  const { pushSubscribeRequestSchema } = await import('@/contract/push');
  const parsed = pushSubscribeRequestSchema.safeParse({ user_id: userId, subscription: subscription.toJSON() });
  if (!parsed.success) return { ok: false, status: 0, message: PUSH_UNAVAILABLE };
  const outboxId = newIdempotencyKey();
  await enqueueWrite({
    method: 'POST',
    path: paths.pushSubscribe.build(),
    json: parsed.data,
    idempotencyKey: outboxId,
    local: null,
    label: 'Notifications',
    failureMessage: PUSH_UNAVAILABLE,
  });
  return { ok: true, status: 202, data: { outboxId } };
}
