/// <reference lib="webworker" />
/**
 * Hearth's service worker (built by vite-plugin-pwa, injectManifest).
 *
 * - Precaches the app shell and every route chunk (they are small and hashed), so a cold start and
 *   every screen work offline from the first install; navigations fall back to the precached
 *   index.html. Nothing under /api is ever cached: personal data lives only in the encrypted replica.
 * - A new build waits until the person accepts it (SKIP_WAITING from the page).
 * - Replays the outbox (src/data/outbox/replay, the same code the page runs when no worker
 *   controls it). Workbox's Queue is used only for its Background Sync plumbing (tag, sync event,
 *   start-up replay where the browser has no Background Sync); the entries live in the outbox's own
 *   encrypted IndexedDB store, see docs/offline-outbox.md. Open pages hear what each of its requests
 *   got (./worker-transport.ts), so they notice a Wi-Fi that reaches nothing, and its end, as they
 *   do from their own requests.
 * - Push (./push.ts): re-sync open pages, pull ahead for a closed app, a content-free notification,
 *   and a click that opens the screen the push names.
 */
import { Queue } from 'workbox-background-sync';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { replayOutbox, type ReplayReport } from '@/data/outbox/replay';
import { OUTBOX_QUEUE_NAME, type OutboxCommand } from '@/data/outbox/types';
import { workerDataKey } from './worker-key';
import { getActiveOwner, outboxDatabaseFor } from '@/data/owner';
import { workerTransport, rememberPageToken } from './worker-transport';
import { onNotificationClick, onPush } from './push';
import { postToPages } from './page-channel';

declare const self: ServiceWorkerGlobalScope;

// --- app shell -------------------------------------------------------------------------------

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// --- viewer code (issue 11) ---------------------------------------------------------------------

/**
 * The PDF viewer's engine (pdf.js, ~420 KB, and its worker, ~1.2 MB: `.mjs` files Vite copies from
 * pdfjs-dist) is not in the precache: most young people never open a PDF, and the first install
 * stays small. It is cached here, in a cache of its own, cache first, the first time it is loaded (a
 * PDF opened online) or when a page asks (`hearth:cache-viewer` with the two addresses: a PDF is kept
 * on the device), so a kept PDF opens offline. Only those two files of this origin are accepted;
 * a new build's copy (another hashed name) replaces the old one. Not personal data (sign-out's wipe
 * of other caches may remove it; the next keeping pass with a PDF brings it back).
 */
const VIEWER_CACHE = 'hearth-viewer-code';
const VIEWER_FILE = /^\/assets\/(pdf|pdf\.worker)\.min-[\w-]+\.mjs$/;

const isViewerCode = (url: URL): boolean => url.origin === self.location.origin && VIEWER_FILE.test(url.pathname);
const viewerKind = (url: URL): string => VIEWER_FILE.exec(url.pathname)?.[1] ?? '';

/** Stores one viewer file and drops any other build's copy of the same file. */
async function keepViewerFile(cache: Cache, url: URL, response: Response): Promise<void> {
  await cache.put(url.href, response);
  for (const request of await cache.keys()) {
    const other = new URL(request.url);
    if (other.href !== url.href && viewerKind(other) === viewerKind(url)) await cache.delete(request);
  }
}

async function viewerCode(request: Request): Promise<Response> {
  const cache = await caches.open(VIEWER_CACHE);
  const hit = await cache.match(request.url);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await keepViewerFile(cache, new URL(request.url), response.clone());
  return response;
}

async function cacheViewer(urls: readonly unknown[]): Promise<void> {
  const cache = await caches.open(VIEWER_CACHE);
  for (const value of urls) {
    if (typeof value !== 'string') continue;
    const url = new URL(value, self.location.href);
    if (!isViewerCode(url) || (await cache.match(url.href))) continue;
    const response = await fetch(url.href, { credentials: 'same-origin' });
    if (response.ok) await keepViewerFile(cache, url, response);
  }
}

registerRoute(({ url }) => isViewerCode(url), ({ request }) => viewerCode(request));

// Navigations (not the API) get the precached shell.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/sw\.js$/] }));

// The first install controls the open page at once (nothing to disagree with); updates wait.
clientsClaim();



// --- outbox ------------------------------------------------------------------------------------

let retryTimer: ReturnType<typeof setTimeout> | null = null;

async function replay(): Promise<ReplayReport> {
  // Only the signed-in person's queue, with their key: never someone else's writes under this session.
  const owner = await getActiveOwner();
  if (!owner) return { sent: 0, failed: 0, retrying: 0, held: false, waitingFor: null, nextAttemptAt: null, remaining: 0 };
  const report = await replayOutbox({
    databaseName: outboxDatabaseFor(owner),
    getKey: () => workerDataKey(owner),
    transport: workerTransport,
    notify: postToPages,
  });
  // While the worker is alive, try again when the earliest backed-off entry is due.
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  if (report.nextAttemptAt !== null) {
    const delay = Math.max(1_000, report.nextAttemptAt - Date.now());
    if (delay < 5 * 60_000) retryTimer = setTimeout(() => void replay().catch(() => undefined), delay);
  }
  return report;
}

const hasBackgroundSync = 'sync' in self.registration;

/**
 * Background Sync: the browser fires `workbox-background-sync:hearth-outbox` when online, also
 * with no page open. Throwing asks the browser to try again later (its own backoff).
 * Without Background Sync, Workbox calls this at every worker start.
 */
const queue = new Queue(OUTBOX_QUEUE_NAME, {
  onSync: async () => {
    const report = await replay().catch(() => null);
    const unfinished = !report || report.retrying > 0 || report.nextAttemptAt !== null || report.waitingFor === 'csrf';
    if (unfinished && hasBackgroundSync) throw new Error('The outbox still holds entries to send');
  },
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: unknown } | null;
  if (!data || typeof data.type !== 'string') return;
  if (data.type === 'SKIP_WAITING') {
    void self.skipWaiting();
    return;
  }
  if (data.type === 'hearth:cache-viewer') {
    const urls = (data as { urls?: unknown }).urls;
    event.waitUntil(cacheViewer(Array.isArray(urls) ? urls : []).catch(() => undefined));
    return;
  }
  const command = data as OutboxCommand;
  if (command.type === 'outbox:flush' || command.type === 'outbox:resume') {
    rememberPageToken(command.csrfToken);
    event.waitUntil(
      (async () => {
        await queue.registerSync();
        await replay();
      })().catch(() => undefined),
    );
  }
});

// Every start of the worker: whatever was written offline and not yet sent.
void replay().catch(() => undefined);

// --- push ---------------------------------------------------------------------------------------

// Content-free pushes: re-sync, pull ahead, a neutral notification; a click opens its screen (./push.ts).
self.addEventListener('push', onPush);
self.addEventListener('notificationclick', onNotificationClick);
