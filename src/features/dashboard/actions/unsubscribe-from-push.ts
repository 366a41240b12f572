import { unsubscribePush } from '@/api/push/unsubscribe-push';

/**
 * SPEC §4 logout, first step: removes the push subscription on the server (a direct call, not the
 * outbox: the session is about to end) and in the browser. Best effort, never throws.
 */
export async function unsubscribeFromPush(): Promise<void> {
  try {
    const registration = await globalThis.navigator?.serviceWorker?.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription) return;
    await unsubscribePush(subscription.endpoint);
    await subscription.unsubscribe();
  } catch {
    // Offline or no worker: the wipe step drops the browser side, the server's copy expires.
  }
}
