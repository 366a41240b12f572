import { expect, test, type Page } from '@playwright/test';
import { signInAsJamie } from './support/sign-in';

/**
 * Issue 13 in the browser: the login screen paints before its JavaScript (prerendered into
 * index.html) and nothing typed meanwhile is lost; the signed-in screens do not shift while the
 * replica opens (their shape from last time is held, and on a first visit what arrives grows below the fold).
 */

test('the login screen paints before its JavaScript; what is typed meanwhile stays', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });

  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Hearth' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('[data-prerendered]')).toHaveCount(1);
  await page.getByLabel('Username').fill('jamie');
  await page.getByLabel('Username').focus();

  release();
  await expect(page.locator('[data-prerendered]')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveValue('jamie');
  await expect(page.getByLabel('Username')).toBeFocused();
  expect(violations).toEqual([]);
});

test('an address other than / never shows the prerendered login screen', async ({ page }) => {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/terms-and-conditions', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('[data-prerendered]')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Welcome to Hearth' })).toBeHidden();
});

/** The layout shifts of the page since it loaded (Layout Instability API), without those after input. */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

/** Sums the page's layout shifts, from its first paint, into `window.__shift` (see `layoutShift`). */
async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

test('the dashboard and the journal entries do not shift while the replica opens', async ({ page }) => {
  await watchLayoutShifts(page);
  await signInAsJamie(page);
  const roster = page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]');
  const replies = page.locator('section[aria-labelledby="replies-title"][aria-busy="false"]');
  const entries = page.locator('ul[aria-label="Journal entries"] article');
  // Once each, as a person does: the screens' shapes are remembered from these visits (the first
  // pull on a fresh server may take a while on a busy machine). Each visit lasts until all of the
  // screen has shown: a region left while it loaded has no shape on record to hold next time.
  await expect(roster).toBeVisible({ timeout: 60_000 });
  await expect(replies).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.goto('/journal/entries');
  await expect(entries.first()).toBeVisible({ timeout: 60_000 });

  // Then a start as on a slow phone: the replica opens and decrypts while the screen is up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  try {
    for (const [path, ready] of [
      ['/dashboard', roster],
      ['/journal/entries', entries.first()],
    ] as const) {
      await page.goto(path);
      await expect(ready).toBeVisible();
      // What arrives just after (counts, pictures) has its chance to move things too.
      await page.waitForLoadState('networkidle');
      expect(await layoutShift(page), path).toBeLessThanOrEqual(0.05);
    }
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
});

test('signing in, the dashboard does not shift as the first pulls bring its parts in', async ({ page }) => {
  // Sign-out forgets the screens' shapes, so on a shared tablet every sign-in is a first visit.
  await watchLayoutShifts(page);
  await signInAsJamie(page);
  await expect(page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  // From the login screen's first paint: a sign-in is a navigation inside the page.
  expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);
});

/**
 * The other screens a young person opens from the menu: each with its page heading, and what shows
 * once its data is there (jamie's demo data has some of each; feedback and swaps may have been
 * answered or removed by other tests, when their empty state shows instead).
 */
const SCREENS: readonly (readonly [path: string, heading: string, shown: string])[] = [
  ['/journal', 'Write in your journal', 'form'],
  ['/calendar', 'Calendar', 'section.day'],
  ['/voice', 'Your voice', '.voice-choice'],
  ['/voice/entries', 'My messages', '.voice-item__excerpt'],
  ['/objectives', 'Objectives', '.objectives__list'],
  ['/rewards', 'Rewards', 'ul[aria-label="Rewards"] li'],
  ['/rewards/history', 'Reward history', '.rewards__history li, .empty-state'],
  ['/documents', 'Documents', '.doc-item'],
  ['/feedback', 'Feedback', '.feedback-group, .empty-state'],
];

async function openScreen(page: Page, path: string, heading: string, shown: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(shown).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.loading-text')).toHaveCount(0, { timeout: 60_000 });
  // What arrives just after (pictures, a storage estimate) has its chance to move things too.
  await page.waitForLoadState('networkidle');
}

test('the other signed-in screens do not shift while the replica opens', async ({ page }) => {
  test.setTimeout(240_000);
  await watchLayoutShifts(page);
  await signInAsJamie(page);
  // The first pull is over (what it brings in would move things for its own reasons).
  await expect(page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  // And two conversations: a demo entry with staff's comments, which the thread pulls when it opens,
  // and the newest entry (in a full run, another test's, with a drawing and a photo).
  await page.goto('/journal/entries');
  const threads = page.locator('ul[aria-label="Journal entries"] article a[href^="/entries/comments/"]');
  const newest = await threads.first().getAttribute('href', { timeout: 60_000 });
  const nans = page.locator('ul[aria-label="Journal entries"] article', { hasText: "Nan's visit was really nice" });
  const withComments = await nans.locator('a[href^="/entries/comments/"]').first().getAttribute('href', { timeout: 60_000 });
  const screens = [...SCREENS, ...[...new Set([newest!, withComments!])].map((path) => [path, 'Comments', '.thread'] as const)];
  // Every visit as on a slow phone, where the replica opens and decrypts while the screen is up.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const firstVisits: Record<string, number> = {};
  const revisits: Record<string, number> = {};
  try {
    // A first visit on this device has no shape on record to hold: what arrives grows below what is
    // shown, and the footer starts below the fold...
    for (const [path, heading, shown] of screens) {
      await openScreen(page, path, heading, shown);
      firstVisits[path] = await layoutShift(page);
    }
    // ...and a visit after it holds the shape the first one left.
    for (const [path, heading, shown] of screens) {
      await openScreen(page, path, heading, shown);
      revisits[path] = await layoutShift(page);
    }
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  expect({
    firstVisits: Object.entries(firstVisits).filter(([, shift]) => shift > 0.05),
    revisits: Object.entries(revisits).filter(([, shift]) => shift > 0.05),
  }).toEqual({ firstVisits: [], revisits: [] });
});
