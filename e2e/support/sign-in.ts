import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './accounts';

/** Fills the login form the way a person does and presses Sign in. */
export async function submitLogin(page: Page, username: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signInAsJamie(page: Page): Promise<void> {
  await submitLogin(page, 'jamie');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
}

/**
 * Wide screens show Logout in the Main bar; phones keep it in the Menu drawer. Waiting for the Main bar
 * first makes the check deterministic (the CSS breakpoint is fixed once the bar is rendered), and each
 * locator is scoped to one place so it can never match the bar's and the drawer's button at once.
 */
export async function signOut(page: Page): Promise<void> {
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main).toBeVisible();
  const barLogout = main.getByRole('button', { name: 'Logout' });
  if (await barLogout.isVisible()) {
    await barLogout.click();
  } else {
    await main.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Logout' }).click();
  }
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
}
