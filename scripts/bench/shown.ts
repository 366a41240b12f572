import type { Page } from '@playwright/test';

/**
 * Waits until an element matching `selector` (and holding `text`, when given) is laid out with a size
 * and not hidden, checking in the page on every animation frame: a time taken with it is within a
 * frame of the paint.
 *
 * Playwright's own waits (`locator.waitFor`, `expect`) check from the test process with a growing
 * back-off (0, 20, 50, 100, 100, 500 ms between checks in Playwright 1.65), so a time taken with them
 * lands on one of those checks, not on the paint: a journal card painted 280 ms after the navigation
 * was reported at about 390 (docs/decisions.md, "The bench's clock is the page's frames").
 */
export async function shown(page: Page, selector: string, text: string | null = null, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    ([css, words]) => {
      for (const element of document.querySelectorAll(css)) {
        if (words !== null && !(element.textContent ?? '').includes(words)) continue;
        const box = element.getBoundingClientRect();
        if (box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden') return true;
      }
      return false;
    },
    [selector, text] as const,
    { polling: 'raf', timeout },
  );
}
