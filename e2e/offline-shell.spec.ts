import { expect, test } from './support/offline';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

test('once the service worker controls the page, the app starts with no network', async ({ page, context }) => {
  await signInAsJamie(page);

  // The worker installs (precaching the shell and every chunk) and claims the page.
  await waitForWorker(page);
  const manifest = await page.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
  expect(manifest).toMatchObject({ name: 'Hearth', start_url: '/dashboard', display: 'standalone' });

  await context.setOffline(true);
  try {
    // A cold reload: index.html, the entry and the dashboard's chunk all come from the precache.
    await page.reload();
    // (The name in it comes from the replica; the shell and the screen are what this checks.)
    await expect(page).toHaveTitle('Hearth - Dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/^Hi/);
    await expect(page.getByText('You are currently offline')).toBeVisible();

    // A screen never opened online: its lazy chunk was precached too.
    await page.goto('/calendar');
    await expect(page).toHaveTitle('Hearth - Calendar');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // Nothing under /api is answered from a cache.
    const status = await page.evaluate(async () => {
      try {
        return (await fetch('/api/v1/auth/user', { credentials: 'include' })).status;
      } catch {
        return 0;
      }
    });
    expect(status).toBe(0);
  } finally {
    await context.setOffline(false);
  }
});

test('a Wi-Fi that reaches nothing is offline: the banner shows though the browser says online, an entry waits, and goes once the server answers', async ({ page, context }) => {
  test.setTimeout(150_000);
  await signInAsJamie(page);
  await waitForWorker(page);
  const text = `Written where the Wi-Fi reaches nothing ${Date.now()}`;

  // Connected, but nothing gets through to Hearth's server (the page's requests and the worker's).
  let reachesNothing = true;
  await context.route('**/api/**', (route) => (reachesNothing ? route.abort('internetdisconnected') : route.fallback()));
  try {
    await page.goto('/journal');
    await expect(page.getByText('You are currently offline')).toBeVisible();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);

    await page.getByRole('textbox', { name: /on your mind/ }).fill(text);
    await page.getByRole('button', { name: 'Save entry' }).click();
    await expect(page.getByText('You are offline, we will retry posting your entry when back online.')).toBeVisible();
    await expect(page.getByRole('article').filter({ hasText: text }).getByText('Waiting to send')).toBeVisible();
  } finally {
    reachesNothing = false;
  }

  // No `online` event comes: the app asks the server again by itself, and sends what waited.
  await expect(page.getByText('You are currently offline')).toBeHidden({ timeout: 45_000 });
  await expect(page.getByRole('article').filter({ hasText: text }).getByText('Waiting to send')).toHaveCount(0, { timeout: 60_000 });
});
