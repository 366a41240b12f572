import { expect, test } from '@playwright/test';
import { signInAsJamie, signOut, submitLogin } from './support/sign-in';

test('jamie signs in, lands on the dashboard, and every screen has its title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Hearth');
  await signInAsJamie(page);
  await expect(page).toHaveTitle('Hearth - Dashboard');
  // The profile photo came from the server (decorative beside the name, so alt is empty). Other avatars
  // (replies, the rota) load in later, so pick the one beside the heading: the 64 px profile photo.
  const photo = page.locator('main img.avatar[width="64"]');
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  const screens: Array<[string, string]> = [
    ['/calendar', 'Hearth - Calendar'],
    ['/journal', 'Hearth - Journal'],
    ['/voice', 'Hearth - Voice'],
    ['/objectives', 'Hearth - Objectives'],
    ['/rewards', 'Hearth - Rewards'],
    ['/documents', 'Hearth - Documents'],
    ['/change-password', 'Hearth - Change password'],
    ['/terms-and-conditions', 'Hearth - Terms and conditions'],
    ['/auth/mfa/configure', 'Hearth - Two-factor set-up'],
    ['/dev', 'Hearth - Developer'],
  ];
  for (const [path, title] of screens) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  await page.goto('/dashboard');
  await signOut(page);
  await expect(page).toHaveURL(/\/$/);
  // The session died on the server: the dashboard is no longer reachable.
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the navigation takes jamie between screens', async ({ page }) => {
  await signInAsJamie(page);
  // Once the Main bar is rendered, which items it shows is fixed by the CSS breakpoint: no race.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  let calendar = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' });
  if (!(await calendar.isVisible())) {
    // Phones keep the later items in the Menu drawer.
    await page.getByRole('button', { name: 'Menu' }).click();
    calendar = page.getByRole('navigation', { name: 'More' }).getByRole('link', { name: 'Calendar' });
  }
  await calendar.click();
  await expect(page).toHaveURL(/\/calendar$/);
  await expect(page).toHaveTitle('Hearth - Calendar');
});

test('a wrong password shows the server message and keeps the person on the login screen', async ({ page }) => {
  await submitLogin(page, 'jamie', 'not-the-password');
  await expect(page.getByText('The username or password is not right. Please check them and try again.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('a staff account is refused with the invalid user type message', async ({ page }) => {
  await submitLogin(page, 'carer.ali');
  await expect(page.getByText('Invalid user type. Redirecting to login.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 15_000 });
  // Signed out on the server too.
  const status = await page.evaluate(async () => (await fetch('/api/v1/auth/user', { credentials: 'include' })).status);
  expect(status).toBe(401);
});

test('an unknown path shows the 404 page and Back to safety goes to the dashboard', async ({ page }) => {
  await signInAsJamie(page);
  await page.goto('/no/such/place');
  await expect(page.getByText('Page not found: /no/such/place')).toBeVisible();
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Back to safety' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).toHaveTitle('Hearth - Dashboard');
});

test('keyboard only: from the login screen to the dashboard', async ({ page }) => {
  await page.goto('/');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? '');
  // Tab until the username field has focus, typing nothing with the mouse.
  for (let i = 0; i < 15 && (await focused()) !== 'username'; i++) await page.keyboard.press('Tab');
  expect(await focused()).toBe('username');
  await page.keyboard.type('jamie');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('password');
  await page.keyboard.type('hearth-demo-1');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
});
