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

export async function signOut(page: Page): Promise<void> {
  const logout = page.getByRole('button', { name: 'Logout' });
  if (!(await logout.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
}
