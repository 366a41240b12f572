import { expect, test, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { signInAsJamie } from './support/sign-in';

/**
 * Writing in the journal end to end, against the real server: words, a drawing made with the
 * mouse, a reaction, a photo and sharing with Ali; the entry is listed and the server holds exactly
 * one copy with its photo, drawing and sharing.
 */

interface ServerEntry {
  id: string;
  description: string | null;
  reaction: string | null;
  canvas: { id: string } | null;
  files: { id: string; mime: string }[];
  shared_with: string[];
}

/** A small, colourful PNG made here (no fixture file). */
function smallPng(): Buffer {
  const png = new PNG({ width: 48, height: 32 });
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const i = (png.width * y + x) << 2;
      png.data[i] = (x * 5) & 255;
      png.data[i + 1] = (y * 7) & 255;
      png.data[i + 2] = 180;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

async function json<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { Accept: 'application/json' } });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function aliId(page: Page): Promise<string> {
  const account = await json<{ user?: { resident?: { id: string } }; data?: { user?: { resident?: { id: string } } } }>(page, '/api/v1/auth/user');
  const residentId = (account.user ?? account.data?.user)?.resident?.id;
  expect(residentId, "jamie's resident id").toBeTruthy();
  const staff = await json<{ data: { id: string; first_name: string; last_name: string }[] }>(page, `/api/v1/projects/residents/${residentId}/associated-users`);
  const ali = staff.data.find((p) => p.first_name === 'Ali' && p.last_name === 'Hassan');
  expect(ali, 'Ali Hassan is on the staff of jamie’s home').toBeTruthy();
  return ali!.id;
}

async function entriesWith(page: Page, text: string): Promise<ServerEntry[]> {
  const body = await json<{ data: ServerEntry[] }>(page, `/api/v1/projects/residents/journal/entries?per_page=50&search_term=${encodeURIComponent(text)}`);
  return body.data.filter((e) => e.description === text);
}

async function drawWithMouse(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add a drawing' }).click();
  const canvas = page.getByRole('img', { name: 'Drawing' });
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  expect(box).not.toBeNull();
  const { x, y, width, height } = box!;
  await page.mouse.move(x + width * 0.2, y + height * 0.3);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1) await page.mouse.move(x + width * (0.2 + step * 0.05), y + height * (0.3 + (step % 2) * 0.2));
  await page.mouse.up();
  await expect(page.getByText('Your drawing has 1 mark.')).toBeVisible();
}

test('jamie writes a journal entry with a drawing, a reaction and a photo, shared with Ali', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsJamie(page);
  const ali = await aliId(page);
  const text = `A day at the beach with the group ${Date.now()}`;

  await page.goto('/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Write in your journal' })).toBeVisible();
  await page.getByRole('textbox', { name: /on your mind/ }).fill(text);

  await drawWithMouse(page);

  const reactions = page.getByRole('radiogroup', { name: 'How are you feeling?' }).getByRole('radio');
  await expect.poll(() => reactions.count(), { timeout: 20_000 }).toBeGreaterThan(1);
  const reaction = reactions.nth(1);
  await reaction.click();
  await expect(reaction).toHaveAttribute('aria-checked', 'true');
  const emoji = (await reaction.textContent())?.trim();

  await page.getByLabel('Add photo or file').setInputFiles({ name: 'beach.png', mimeType: 'image/png', buffer: smallPng() });
  await expect(page.getByText('1 of 5')).toBeVisible();

  await expect(page.getByText('Only you will see this entry.')).toBeVisible();
  await page.getByRole('checkbox', { name: /Ali Hassan/ }).check({ timeout: 20_000 });
  await expect(page.getByText('You and Ali Hassan will see this entry.')).toBeVisible();

  await page.getByRole('button', { name: 'Save entry' }).click();
  await expect(page).toHaveURL(/\/journal\/entries$/, { timeout: 30_000 });
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card).toBeVisible();
  await expect(card.getByText('Shared with 1')).toBeVisible();

  // The server holds exactly one copy, with its photo, its drawing and Ali in shared_with.
  await expect.poll(async () => (await entriesWith(page, text)).length, { timeout: 45_000 }).toBe(1);
  const [saved] = await entriesWith(page, text);
  expect(saved!.files).toHaveLength(1);
  expect(saved!.files[0]!.mime).toMatch(/^image\//);
  expect(saved!.canvas).not.toBeNull();
  expect(saved!.shared_with).toContain(ali);
  expect(saved!.reaction).toBe(emoji);
  await expect(card.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
});

async function waitForWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
}

test('an entry written offline waits on the device, survives a reload and reaches the server once, with its photo', async ({ page, context }) => {
  test.setTimeout(150_000);
  await signInAsJamie(page);
  await waitForWorker(page);
  const text = `Written on the coach with no signal ${Date.now()}`;

  await page.goto('/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Write in your journal' })).toBeVisible();
  // The device has synced (the reactions and the staff are on it) before the signal goes.
  const reactions = page.getByRole('radiogroup', { name: 'How are you feeling?' }).getByRole('radio');
  await expect.poll(() => reactions.count(), { timeout: 20_000 }).toBeGreaterThan(1);
  await expect(page.getByRole('checkbox', { name: /Ali Hassan/ })).toBeVisible({ timeout: 20_000 });

  await context.setOffline(true);
  try {
    await page.getByRole('textbox', { name: /on your mind/ }).fill(text);
    await page.getByLabel('Add photo or file').setInputFiles({ name: 'coach.png', mimeType: 'image/png', buffer: smallPng() });
    await page.getByRole('button', { name: 'Save entry' }).click();
    await expect(page.getByText('You are offline, we will retry posting your entry when back online.')).toBeVisible();
    await expect(page).toHaveURL(/\/journal\/entries$/);
    await expect(page.getByRole('article').filter({ hasText: text }).getByText('Waiting to send')).toBeVisible();

    await page.reload();
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await expect(page.getByRole('article').filter({ hasText: text }).getByText('Waiting to send')).toBeVisible({ timeout: 20_000 });
    // Nothing reached the server while offline (the API request context is not offline).
    expect(await entriesWith(page, text)).toHaveLength(0);
  } finally {
    await context.setOffline(false);
  }

  await page.reload();
  await expect.poll(async () => (await entriesWith(page, text)).length, { timeout: 60_000 }).toBe(1);
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card.getByText('Waiting to send')).toHaveCount(0, { timeout: 45_000 });
  // Still exactly one copy after the replay settles.
  await page.waitForTimeout(2_000);
  const copies = await entriesWith(page, text);
  expect(copies).toHaveLength(1);
  expect(copies[0]!.files).toHaveLength(1);
  expect(copies[0]!.files[0]!.mime).toMatch(/^image\//);
});
