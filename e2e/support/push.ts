import { expect, type BrowserContext, type CDPSession, type Page, type Worker } from '@playwright/test';
import type { PushMessage } from '../../src/contract/push';

/**
 * Driving Hearth's real service worker as a push service and a person would, without the internet.
 *
 * - Delivery: the DevTools protocol's `ServiceWorker.deliverPushMessage` (origin, registration id,
 *   the payload as text) dispatches a real `push` event to the registered worker, the way Chromium does
 *   when its push service delivers a message (no subscription is needed for it). The registration id
 *   comes from `ServiceWorker.workerRegistrationUpdated` after `ServiceWorker.enable`. The DevTools
 *   session is opened on a blank tab (`bystander`) that is not a Hearth window, so closing every
 *   Hearth window leaves the worker with no client, as after the person closed the app.
 * - Notifications: read in the worker itself (`self.registration.getNotifications()` through
 *   Playwright's handle on the service worker target): title, body, tag and the data the worker put in.
 * - A click: Chromium has no DevTools command to click a notification, so the test dispatches a
 *   `notificationclick` event carrying that very Notification object in the worker
 *   (`new NotificationEvent('notificationclick', { notification })`), which runs the worker's own
 *   handler. Such an event is not trusted: the browser gives it no permission to focus a window or open
 *   one (`clients.openWindow` rejects), but routing an open window (a message the page answers) and
 *   navigating a controlled one work. So where a click leads is seen in a Hearth window opened before
 *   the click, and the no-window branch is checked by recording the URL the worker asks `openWindow` for.
 */
/** What these helpers use of the worker's global scope (e2e compiles with the DOM's types, not the worker's). */
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<{ url: string }[]>; openWindow(url: string | URL): Promise<unknown> };
  dispatchEvent(event: Event): boolean;
  NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
  __openWindowCalls?: string[];
}

export interface Shown {
  title: string;
  body: string;
  tag: string;
  icon: string;
  badge: string;
  data: unknown;
}

export interface PushLab {
  /** A tab that is not Hearth (about:blank), holding the DevTools session. */
  readonly bystander: Page;
  /** Delivers `message` as the push service would (JSON text). */
  deliver(message: PushMessage | string): Promise<void>;
  /** Runs `fn` in Hearth's service worker (its current target, after a restart too). */
  inWorker<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** The notifications the worker shows now. */
  notifications(): Promise<Shown[]>;
  /** The worker's window clients (URLs): empty once every Hearth window is closed. */
  windows(): Promise<string[]>;
  /** Dispatches `notificationclick` with the one notification shown (fails when there is not exactly one). */
  clickNotification(): Promise<void>;
  /** From now on, records the URLs the worker asks `clients.openWindow` for (returns the reader). */
  recordOpenWindow(): Promise<() => Promise<string[]>>;
  dispose(): Promise<void>;
}

export async function pushLab(context: BrowserContext, baseURL: string): Promise<PushLab> {
  const origin = new URL(baseURL).origin;
  await context.grantPermissions(['notifications'], { origin });
  const bystander = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(bystander);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
    for (const registration of event.registrations) {
      if (registration.isDeleted) registrations.delete(registration.scopeURL);
      else registrations.set(registration.scopeURL, registration.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');

  const worker = (): Worker | undefined => context.serviceWorkers().filter((w) => w.url().startsWith(`${origin}/`)).at(-1);

  async function inWorker<R, A>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    let last: unknown = null;
    for (const until = Date.now() + 30_000; Date.now() < until; ) {
      const current = worker();
      if (current) {
        try {
          return (await current.evaluate(fn as never, arg as never)) as R;
        } catch (error) {
          last = error; // a target that stopped: the next one appears when the worker starts again
        }
      }
      await context.waitForEvent('serviceworker', { timeout: 1_000 }).catch(() => undefined);
    }
    throw new Error(`Hearth's service worker did not answer: ${String(last)}`);
  }

  const notifications = () =>
    inWorker(async () => {
      const scope = self as unknown as WorkerScope;
      return (await scope.registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon, badge: n.badge, data: n.data as unknown }));
    });

  return {
    bystander,
    async deliver(message) {
      await expect.poll(() => registrations.get(`${origin}/`), { message: "Hearth's service worker registration", timeout: 30_000 }).toBeTruthy();
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId: registrations.get(`${origin}/`)!,
        data: typeof message === 'string' ? message : JSON.stringify(message),
      });
    },
    inWorker,
    notifications,
    windows: () =>
      inWorker(async () => (await (self as unknown as WorkerScope).clients.matchAll({ type: 'window', includeUncontrolled: true })).map((c) => c.url)),
    async clickNotification() {
      await inWorker(async () => {
        const scope = self as unknown as WorkerScope;
        const shown = await scope.registration.getNotifications();
        if (shown.length !== 1) throw new Error(`${shown.length} notifications shown, expected one`);
        scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: shown[0]! }));
      });
    },
    async recordOpenWindow() {
      await inWorker(() => {
        const scope = self as unknown as WorkerScope;
        const calls: string[] = [];
        const clients = scope.clients;
        const original = clients.openWindow.bind(clients);
        scope.__openWindowCalls = calls;
        clients.openWindow = (url: string | URL) => {
          calls.push(String(url));
          return original(url);
        };
      });
      return () => inWorker(() => (self as unknown as WorkerScope).__openWindowCalls ?? []);
    },
    async dispose() {
      await cdp.detach().catch(() => undefined);
      await bystander.close().catch(() => undefined);
    },
  };
}

/** The identifiers of the pulled-ahead answers the worker keeps now (src/data/prefetch/store.ts; ids are in clear). */
export function keptAnswers(lab: PushLab): Promise<string[]> {
  return lab.inWorker(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.endsWith('-prefetch'));
    const keys: string[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        if (!db.objectStoreNames.contains('pages')) continue;
        const found = await new Promise<IDBValidKey[]>((resolve, reject) => {
          const request = db.transaction('pages').objectStore('pages').getAllKeys();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        keys.push(...found.map(String));
      } finally {
        db.close();
      }
    }
    return keys;
  });
}

/** The replications whose next request the page has recorded (read in a Hearth page). */
export function recordedPulls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => name.endsWith('-prefetch'));
    const keys: string[] = [];
    for (const name of names) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        if (!db.objectStoreNames.contains('next')) continue;
        const found = await new Promise<IDBValidKey[]>((resolve, reject) => {
          const request = db.transaction('next').objectStore('next').getAllKeys();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        keys.push(...found.map(String));
      } finally {
        db.close();
      }
    }
    return keys;
  });
}
