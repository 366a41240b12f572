import { expect, test } from '@playwright/test';
import { signInAsJamie } from './support/sign-in';
import { ONE_VIEWPORT } from './support/tags';

// The page's requests, not the worker's cache: a chunk the network refuses once.
test.use({ serviceWorkers: 'block' });

test('a screen whose code cannot load in this page opens after one reload, at the address that was tapped', ONE_VIEWPORT, async ({ page }) => {
  await signInAsJamie(page);
  await expect(page).toHaveTitle('Hearth - Dashboard');
  // Refused for as long as this document lives (a new build replaced the file): the bundler's
  // modulepreload and the import itself may each ask for it, in either order, and only a reload helps.
  let refused = 0;
  const documents: string[] = [];
  await page.route(/\/assets\/calendar-page-[^/]+\.js$/, async (route) => {
    if (documents.length === 0) {
      refused += 1;
      await route.abort('failed');
    } else await route.continue();
  });
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(new URL(request.url()).pathname);
  });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
  // One reload, to the calendar (before, it reloaded the dashboard, and the tap was lost).
  await expect(page).toHaveURL(/\/calendar$/);
  await expect(page).toHaveTitle('Hearth - Calendar');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(refused).toBeGreaterThanOrEqual(1);
  expect(documents).toEqual(['/calendar']);
});
