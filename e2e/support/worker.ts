import { expect, type Page } from '@playwright/test';

/**
 * Waits until the service worker has installed (precaching the shell and every chunk) and controls
 * the page, so the app can start with no network. Generous: on a loaded two-core machine the
 * first install of ~1 MB of precache can take a while.
 */
export async function waitForWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 60_000 }).toBe(true);
}
