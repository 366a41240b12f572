import { test as base, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { recordWorkerLog } from './worker-log';

/**
 * Offline as a phone without network has it, in every document of a context.
 *
 * Playwright's `context.setOffline(true)` blocks the requests of every page, but Debian's Chromium
 * 150 (2026-11) gives a document loaded after it (a reload, a `goto`) `navigator.onLine === true`
 * and no `offline` event: the app then shows no offline banner and queues writes as if online,
 * which Chromium 156 did not do. So each page gets a DevTools session of its own that says
 * offline again whenever a document commits while the context is offline (and online with the
 * context). The app sees what it would see on a device with no network; its requests fail either way.
 */
const CONDITIONS = { latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

export function followOffline(context: BrowserContext): void {
  let offline = false;
  const sessions = new Map<Page, Promise<CDPSession | null>>();
  const tell = (page: Page): Promise<void> =>
    (sessions.get(page) ?? Promise.resolve(null)).then((session) =>
      session?.send('Network.emulateNetworkConditions', { offline, ...CONDITIONS }).then(
        () => undefined,
        () => undefined, // the page closed meanwhile
      ),
    );
  const watch = (page: Page): void => {
    sessions.set(page, context.newCDPSession(page).catch(() => null));
    page.on('framenavigated', (frame) => {
      if (offline && frame === page.mainFrame()) void tell(page);
    });
    page.on('close', () => sessions.delete(page));
    if (offline) void tell(page);
  };
  context.pages().forEach(watch);
  context.on('page', watch);

  const setOffline = context.setOffline.bind(context);
  context.setOffline = async (value: boolean) => {
    offline = value;
    await setOffline(value);
    await Promise.all([...sessions.keys()].map(tell));
  };
}

/**
 * `test` with every context's offline followed into new documents (see followOffline), and what
 * its service worker did attached to a failed test (./worker-log.ts).
 */
export const test = base.extend<{ context: BrowserContext }>({
  context: async ({ context }, use, testInfo) => {
    followOffline(context);
    const workerLog = recordWorkerLog(context);
    await use(context);
    await workerLog.attachTo(testInfo);
  },
});

export { expect } from '@playwright/test';
