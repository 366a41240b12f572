/**
 * Push messages and notification clicks (issue 10). A push only says what changed and which screen
 * to open (`src/contract/push.ts`): nothing personal travels in it or shows on a lock screen.
 *
 * On a push the worker:
 * 1. asks the replicating tab, if any, to re-pull the named topics (the `hearth-resync` channel,
 *    src/data/replication/resync.ts): an open Hearth updates live;
 * 2. when no Hearth window is on screen, pulls ahead: makes the requests those replications will
 *    make next and keeps the answers, sealed with the person's data key, for the app to read first
 *    when it starts (src/data/prefetch/store.ts), so it opens up to date even if offline by then;
 * 3. unless someone is looking at Hearth, shows the push's neutral title and text ("Something new
 *    in Hearth") with the screen to open in the notification's data.
 * A click focuses an open Hearth window and shows that screen there (or opens a new window). A
 * screen that is not a path of this app opens the dashboard; a screen whose item is gone sends the
 * person on to the dashboard itself (`?from=notification`, src/components/use-leave-when-gone.ts).
 */
import {
  isPushUrl,
  OPEN_SCREEN_MESSAGE,
  OPENED_FROM_NOTIFICATION,
  OPENED_FROM_PARAM,
  PUSH_FALLBACK_URL,
  readPushNotice,
  type PushNotice,
} from '@/contract/push-notice';
import { RESYNC_CHANNEL } from '@/contract/sync-topics';
import { getActiveOwner } from '@/data/owner';
import { prefetchForPush } from '@/data/prefetch/store';
import { workerDataKey } from './worker-key';

declare const self: ServiceWorkerGlobalScope;

/** One notification at a time: a new push replaces the last one (quietly: renotify is off). */
export const NOTIFICATION_TAG = 'hearth-changed';
/** How long pulling ahead may take before the push is let go. */
const PULL_AHEAD_MS = 20_000;
/** How long an open window has to say it routes a click itself before the worker navigates it. */
const ROUTE_ANSWER_MS = 3_000;

function noticeOf(event: PushEvent): PushNotice {
  let data: unknown = null;
  try {
    data = event.data?.json();
  } catch {
    data = null; // not JSON: re-sync everything, open the dashboard
  }
  return readPushNotice(data);
}

function askToResync(notice: PushNotice): void {
  try {
    const channel = new BroadcastChannel(RESYNC_CHANNEL);
    channel.postMessage({ topics: notice.topics ? [...notice.topics] : undefined });
    channel.close();
  } catch {
    // no channel: pages re-sync on their next start or visibility change
  }
}

const sameOrigin = (url: string): boolean => {
  try {
    return new URL(url).origin === self.location.origin;
  } catch {
    return false;
  }
};

async function hearthWindows(): Promise<readonly WindowClient[]> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  return windows.filter((client) => sameOrigin(client.url));
}

/** Pulls ahead what the push names, for the signed-in person only (never without their key). */
async function pullAhead(notice: PushNotice): Promise<void> {
  const owner = await getActiveOwner();
  if (!owner) return;
  const key = await workerDataKey(owner);
  if (!key) return;
  await prefetchForPush({ factory: indexedDB, owner }, key, { topics: notice.topics, screen: notice.named ? notice.url : null }, (url) =>
    fetch(url, { credentials: 'include', cache: 'no-store', headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(PULL_AHEAD_MS) }),
  );
}

async function showNotice(notice: PushNotice): Promise<void> {
  const shown = await self.registration.getNotifications({ tag: NOTIFICATION_TAG });
  // The one notification already stands for something else too: the dashboard shows everything new.
  const another = shown.some((notification) => (notification.data as { url?: unknown } | null)?.url !== notice.url);
  await self.registration.showNotification(notice.title, {
    body: notice.body,
    icon: '/icons/icon-192.png',
    badge: '/icons/badge-96.png',
    tag: NOTIFICATION_TAG,
    data: { url: another ? PUSH_FALLBACK_URL : notice.url },
  });
}

export function onPush(event: PushEvent): void {
  const notice = noticeOf(event);
  event.waitUntil(
    (async () => {
      askToResync(notice);
      const windows = await hearthWindows();
      const work: Promise<unknown>[] = [];
      if (!windows.some((client) => client.visibilityState === 'visible')) work.push(pullAhead(notice).catch(() => undefined));
      // Someone looking at Hearth sees it change; everyone else gets the neutral notification.
      if (!windows.some((client) => client.focused)) work.push(showNotice(notice));
      await Promise.all(work);
    })(),
  );
}

/** Asks an open window to route there itself; true when it says it did. */
function routeInWindow(client: WindowClient, url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(false);
    }, ROUTE_ANSWER_MS);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(true);
    };
    client.postMessage({ type: OPEN_SCREEN_MESSAGE, url }, [channel.port2]);
  });
}

/** The screen a notification opens, as an address of this app marked as opened from a notification. */
export function notificationTarget(data: unknown): URL {
  const url = (data as { url?: unknown } | null)?.url;
  const target = new URL(isPushUrl(url) ? url : PUSH_FALLBACK_URL, self.location.origin);
  target.searchParams.set(OPENED_FROM_PARAM, OPENED_FROM_NOTIFICATION);
  return target;
}

async function openScreen(target: URL): Promise<void> {
  const windows = await hearthWindows();
  const client = windows.find((c) => c.focused) ?? windows.find((c) => c.visibilityState === 'visible') ?? windows[0];
  if (!client) {
    await self.clients.openWindow(target.href);
    return;
  }
  // Focusing needs the click's permission; without it (a test driving the handler) keep going.
  const focused = (await client.focus().catch(() => null)) ?? client;
  if (await routeInWindow(focused, `${target.pathname}${target.search}`)) return;
  try {
    await focused.navigate(target.href);
  } catch {
    await self.clients.openWindow(target.href); // a window this worker does not control
  }
}

export function onNotificationClick(event: NotificationEvent): void {
  event.notification.close();
  const opening = openScreen(notificationTarget(event.notification.data)).catch(() => undefined);
  try {
    event.waitUntil(opening);
  } catch {
    // An event dispatched by script (not the browser) cannot be extended; the opening still runs.
  }
}
