import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { withProfile } from './support/profile';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';
import { ONE_VIEWPORT } from './support/tags';

/**
 * Installing (issue 10) in Chromium against the built app: Chromium itself finds Hearth installable
 * (the DevTools protocol's own check of the manifest, icons and service worker); the offers on the
 * dashboard pass axe and "No thanks" lasts across a reload. The offers' logic is in
 * tests/web/install-offers.test.tsx; here the browser's install event is played by a script (headless
 * Chromium does not show an install dialog).
 */
test.use({ bypassCSP: true }); // axe is injected as a script tag

test('Chromium finds Hearth installable (manifest, icons, service worker), in a profile on disk', ONE_VIEWPORT, async () => {
  await withProfile(async (context, page) => {
    await signInAsJamie(page);
    await waitForWorker(page);
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ id: '/', name: 'Hearth', short_name: 'Hearth', start_url: '/dashboard', display: 'standalone' });
    await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, { timeout: 30_000 }).toEqual([]);
  });
});

test('the "Install Hearth" offer: calm, accessible, and "No thanks" lasts', async ({ page }) => {
  await signInAsJamie(page);
  const offer = page.getByRole('region', { name: 'Install Hearth' });
  await expect(page.getByRole('region', { name: 'New replies' })).toBeVisible();
  await expect(offer).toHaveCount(0);

  const fireInstallEvent = () =>
    page.evaluate(() => {
      const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
        prompt: async () => undefined,
        userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }),
      });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
  expect(await fireInstallEvent()).toBe(true);
  await expect(offer).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Install Hearth' })).toBeVisible();
  await expectNoAxeViolations(page, 'dashboard with the install offer');

  await offer.getByRole('button', { name: 'No thanks' }).click();
  await expect(offer).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('region', { name: 'New replies' })).toBeVisible();
  await fireInstallEvent();
  await expect(page.getByRole('region', { name: 'Get a notification when staff reply' })).toBeVisible();
  await expect(offer).toHaveCount(0);
});

test.describe('on an iPhone', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  });

  test('the Add to Home Screen guide and the push opt-in’s explanation, accessible; "Hide this guide" lasts', async ({ page }) => {
    await signInAsJamie(page);
    const guide = page.getByRole('region', { name: 'Add Hearth to your Home Screen' });
    await expect(guide).toBeVisible();
    await expect(guide.getByRole('listitem')).toHaveCount(3);
    await expect(guide.locator('svg')).toHaveCount(3);
    const push = page.getByRole('region', { name: 'Get a notification when staff reply' });
    await expect(push).toContainText('On iPhone and iPad, Hearth can send notifications once it is on your Home Screen.');
    await expectNoAxeViolations(page, 'dashboard with the iPhone guide');

    await guide.getByRole('button', { name: 'Hide this guide' }).click();
    await expect(guide).toHaveCount(0);
    await push.getByRole('button', { name: 'Show me how' }).click();
    await expect(push.getByRole('listitem')).toHaveCount(3);
    await expectNoAxeViolations(page, 'the push opt-in showing the steps');
    await page.reload();
    await expect(push).toBeVisible();
    await expect(guide).toHaveCount(0);
  });
});
