import { expect, test } from '@playwright/test';
import { RILEY_TOTP_SECRET } from './support/accounts';
import { submitLogin } from './support/sign-in';
import { freshTotpCode } from './support/totp';

test('riley signs in through the verify screen; a wrong code is refused', async ({ page }) => {
  await submitLogin(page, 'riley');
  await expect(page).toHaveURL(/\/auth\/mfa\/verify$/);
  await expect(page).toHaveTitle('Hearth - Two-factor verification');

  const code = page.getByLabel('Verification code');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Verification code is required')).toBeVisible();

  await code.fill('123');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Please enter the complete verification code')).toBeVisible();

  const right = await freshTotpCode(RILEY_TOTP_SECRET);
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  await code.fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Incorrect verification code')).toBeVisible();

  // A pasted code with a space in it still counts as six digits.
  await code.fill('');
  await code.focus();
  await page.evaluate((text) => {
    const input = document.activeElement as HTMLInputElement;
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, `${right.slice(0, 3)} ${right.slice(3)}`);
  await expect(code).toHaveValue(right);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Hi Ril');
});
