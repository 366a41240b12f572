import type { BrowserContext, CDPSession, Page, TestInfo } from '@playwright/test';

/**
 * What the service worker did during a test, kept for when the test fails: a trace shows the page's
 * side only, and two flakes (a precached chunk aborted offline, a push with no notification) could
 * not be explained without the worker's. Recorded: the worker's console, its starts and stops and
 * the errors it reported (DevTools' ServiceWorker domain), failed requests (the worker's marked), and
 * uncaught page errors. Attached to a failed test as `worker-log`.
 */
export function recordWorkerLog(context: BrowserContext): { attachTo(testInfo: TestInfo): Promise<void> } {
  const started = Date.now();
  const lines: string[] = [];
  const log = (line: string) => lines.push(`${String(Date.now() - started).padStart(7)} ms  ${line}`);
  // The path alone: every request here is to the app's own origin, and reporters cut long lines.
  const pathOf = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.pathname}${parsed.search}`;
    } catch {
      return url;
    }
  };

  context.on('serviceworker', (worker) => {
    log(`worker target ${pathOf(worker.url())}`);
    worker.on('console', (message) => log(`worker console.${message.type()}: ${message.text()}`));
    worker.on('close', () => log('worker target closed'));
  });
  context.on('requestfailed', (request) =>
    log(`request failed${request.serviceWorker() ? ' in the worker' : ''}: ${request.method()} ${pathOf(request.url())} ${request.failure()?.errorText ?? ''}`),
  );
  context.on('weberror', (error) => log(`page error: ${error.error().message}`));

  // One DevTools session on a page that is open at the time; another page takes over when it closes.
  let session: Promise<CDPSession | null> | null = null;
  const statuses = new Map<string, string>();
  const follow = (page: Page) => {
    if (session) return;
    session = context.newCDPSession(page).then(
      async (cdp) => {
        cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
          for (const version of versions) {
            const status = `${version.status} / ${version.runningStatus}`;
            if (statuses.get(version.versionId) === status) continue;
            statuses.set(version.versionId, status);
            log(`worker version ${version.versionId}: ${status}`);
          }
        });
        cdp.on('ServiceWorker.workerErrorReported', ({ errorMessage }) =>
          log(`worker error: ${errorMessage.errorMessage} (${errorMessage.sourceURL}:${errorMessage.lineNumber})`),
        );
        await cdp.send('ServiceWorker.enable');
        return cdp;
      })
      // A page closed while its session starts (e2e/push.spec.ts, once in CI): no log from
      // it, never a failed test. The rejection of `send` used to escape the handler of `then`.
      .catch(() => null);
    page.on('close', () => {
      session = null;
      const next = context.pages().find((other) => other !== page && !other.isClosed());
      if (next) follow(next);
    });
  };
  context.pages().forEach(follow);
  context.on('page', follow);

  return {
    async attachTo(testInfo) {
      if (testInfo.status === testInfo.expectedStatus || lines.length === 0) return;
      await testInfo.attach('worker-log', { body: lines.join('\n'), contentType: 'text/plain' });
    },
  };
}
