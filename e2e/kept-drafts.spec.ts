import { expect, test, type Page } from '@playwright/test';
import { signInAsJamie, submitLogin } from './support/sign-in';

/**
 * What a young person is writing is kept on the device (an encrypted draft in the replica) while
 * they write, the photos they attached too: it survives a reload, and signing out first says it
 * would be deleted.
 */
const WORDS = 'I started writing this on the bus and did not finish';
const KEPT = 'We kept what you started writing on this device.';
/** A 1×1 PNG: a photo as small as a photo gets (no fixture file). */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Logout from wherever this window size keeps it (the bar on wide screens, the menu on phones). */
async function pressLogout(page: Page): Promise<void> {
  const main = page.getByRole('navigation', { name: 'Main' });
  const barLogout = main.getByRole('button', { name: 'Logout' });
  if (await barLogout.isVisible()) await barLogout.click();
  else {
    await main.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Logout' }).click();
  }
}

test('words, a drawing being made and a photo attached survive a reload; signing out warns, and deleting them really deletes them', async ({ page }) => {
  await signInAsJamie(page);
  await page.goto('/journal');
  const words = page.getByLabel('What’s on your mind?');
  await words.fill(WORDS);
  // A drawing is kept too, as its marks (a stamp: no dragging needed).
  await page.getByRole('button', { name: 'Add a drawing' }).click();
  await page.getByRole('radio', { name: 'Stamps' }).check();
  await page.getByRole('button', { name: 'Place heart in the middle' }).click();
  await expect(page.getByText('Your drawing has 1 mark.')).toBeVisible();
  // A photo is kept too, its bytes encrypted beside the draft (a phone's browser may reload the page
  // while the camera is open): the form marks it once they are stored.
  const attachments = page.getByRole('group', { name: 'Photos and files' });
  await page.getByLabel('Add photo or file').setInputFiles({ name: 'bus-window.png', mimeType: 'image/png', buffer: PHOTO });
  await expect(attachments.locator('li[data-kept="kept"]')).toHaveCount(1);

  // The warning stores what waited and counts it: the words are on the device now.
  await pressLogout(page);
  const warning = page.getByRole('dialog', { name: 'You have 1 thing that has not been sent yet' });
  await expect(warning).toBeVisible();
  await expect(warning.getByText('You started writing and did not send. Signing out deletes everything Hearth keeps on this device.')).toBeVisible();
  await expect(warning.getByRole('button', { name: 'Wait for them to send' })).toHaveCount(0);
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await expect(words).toHaveValue(WORDS);

  await page.reload();
  await expect(page.getByText(KEPT)).toBeVisible();
  await expect(page.getByLabel('What’s on your mind?')).toHaveValue(WORDS);
  await expect(page.getByText('Your drawing has 1 mark.')).toBeVisible();
  await expect(attachments.getByRole('button', { name: 'Remove bus-window.png' })).toBeVisible();
  await expect(attachments.locator('li[data-kept="kept"]')).toHaveCount(1);
  await expect(attachments.getByText('1 of 5')).toBeVisible();

  await pressLogout(page);
  await page.getByRole('dialog', { name: 'You have 1 thing that has not been sent yet' }).getByRole('button', { name: 'Sign out and delete them' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await submitLogin(page, 'jamie');
  await expect(page).toHaveURL(/\/dashboard$/);
  // Once the replica is open and read (the first pull is in), a draft would have come back by now.
  await expect(page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]')).toBeVisible();
  await page.goto('/journal');
  await expect(page.getByText('Only you will see this entry.')).toBeVisible();
  await expect(page.getByLabel('What’s on your mind?')).toHaveValue('');
  await expect(page.getByText(KEPT)).toHaveCount(0);
  await expect(attachments.getByText('0 of 5')).toBeVisible();
  await expect(attachments.getByRole('listitem')).toHaveCount(0);
});
