import { type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { PNG } from 'pngjs';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * Writing in the journal end to end, against the real server: words, a drawing made with the
 * mouse, a reaction, a photo and sharing with Ali; the entry is listed (never twice) and the server
 * holds exactly one copy with its photo, drawing and sharing. Offline: the entry waits on the device
 * through a reload and closing the page, and reaches the server exactly once when the network returns.
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

/**
 * From now on, in this document, how many cards of the entry list hold `text`: checked at every
 * change of the page (a MutationObserver sees every state React commits) and every 50 ms. Survives
 * client-side navigation (not a reload). Read it with `copiesSeen`.
 */
async function watchCopiesInList(page: Page, text: string): Promise<void> {
  await page.evaluate((wanted) => {
    const seen: { at: number; copies: number }[] = [];
    const start = performance.now();
    let last = -1;
    const sample = () => {
      let copies = 0;
      for (const card of Array.from(document.querySelectorAll('article'))) if (card.textContent?.includes(wanted)) copies += 1;
      if (copies !== last) {
        last = copies;
        seen.push({ at: Math.round(performance.now() - start), copies });
      }
    };
    new MutationObserver(sample).observe(document.body, { childList: true, subtree: true, characterData: true });
    setInterval(sample, 50);
    sample();
    (window as unknown as { __copiesSeen: typeof seen }).__copiesSeen = seen;
  }, text);
}

/** Every change in the number of cards with the text since `watchCopiesInList` (ms since then, count). */
async function copiesSeen(page: Page): Promise<{ at: number; copies: number }[]> {
  return page.evaluate(() => (window as unknown as { __copiesSeen?: { at: number; copies: number }[] }).__copiesSeen ?? []);
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

  // Chosen by name: the journal list's filter tests count on Sad, Excited, Frustrated and Football
  // being only on their own entries and the demo's (e2e/journal-list-closed.spec.ts).
  const reaction = page.getByRole('radiogroup', { name: 'How are you feeling?' }).getByRole('radio', { name: 'Cool', exact: true });
  await expect(reaction).toBeVisible({ timeout: 20_000 });
  await reaction.click();
  await expect(reaction).toHaveAttribute('aria-checked', 'true');
  const emoji = (await reaction.textContent())?.trim();

  await page.getByLabel('Add photo or file').setInputFiles({ name: 'beach.png', mimeType: 'image/png', buffer: smallPng() });
  await expect(page.getByText('1 of 5')).toBeVisible();

  await expect(page.getByText('Only you will see this entry.')).toBeVisible();
  await page.getByRole('checkbox', { name: /Ali Hassan/ }).check({ timeout: 20_000 });
  await expect(page.getByText('You and Ali Hassan will see this entry.')).toBeVisible();

  await watchCopiesInList(page, text);
  await page.getByRole('button', { name: 'Save entry' }).click();
  await expect(page).toHaveURL(/\/journal\/entries$/, { timeout: 30_000 });
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card.first()).toBeVisible();
  // The list never shows the new entry twice (the device's copy and the server's copy, when the
  // sent entry takes the server's id): every state of the list from the save until 3 s after it
  // appeared, sampled at each change and every 50 ms, holds at most one card with the text.
  await page.waitForTimeout(3_000);
  const timeline = await copiesSeen(page);
  test.info().annotations.push({ type: 'cards with the text over time (ms, count)', description: JSON.stringify(timeline) });
  expect(Math.max(...timeline.map((s) => s.copies)), `at most one card with the text, until 3 s after it appeared; over time (ms, cards): ${JSON.stringify(timeline)}`).toBe(1);
  await expect(card).toHaveCount(1);
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
  // And not twice at any moment until the entry was sent and settled.
  const whole = await copiesSeen(page);
  expect(Math.max(...whole.map((s) => s.copies)), `at most one card with the text, until sent and settled; over time (ms, cards): ${JSON.stringify(whole)}`).toBe(1);
});

interface Create {
  key: string | null;
  status: number;
  replayed: boolean;
  fromWorker: boolean;
  id: string | null;
}

/** Every journal-entry create (POST .../journal/entries) the pages or the service worker make, with its answer. */
function watchCreates(context: BrowserContext): Create[] {
  const sent: Create[] = [];
  context.on('response', async (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/v1/projects/residents/journal/entries') return;
    const entry: Create = {
      key: (await request.allHeaders())['idempotency-key'] ?? null,
      status: response.status(),
      replayed: (await response.allHeaders())['idempotent-replayed'] === 'true',
      fromWorker: request.serviceWorker() !== null,
      id: null,
    };
    sent.push(entry);
    try {
      entry.id = ((await response.json()) as { data?: { id?: string } }).data?.id ?? null;
    } catch {
      // body not available: the id check below then fails, not silently
    }
  });
  return sent;
}

test('an entry written offline waits on the device through a reload and closing the page, and reaches the server once, with its photo', async ({ page, context }) => {
  test.setTimeout(150_000);
  const creates = watchCreates(context);
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
  let reopened: Page;
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

    // Close the page (the service worker and its Background Sync registration stay with the
    // browser); a new page, still offline, is served by the worker and shows the entry still
    // waiting, with its photo, from the encrypted replica.
    await page.close();
    reopened = await context.newPage();
    await reopened.goto('/journal/entries');
    await expect(reopened.getByText('You are currently offline')).toBeVisible();
    const waiting = reopened.getByRole('article').filter({ hasText: text });
    await expect(waiting.getByText('Waiting to send')).toBeVisible({ timeout: 20_000 });
    await expect(waiting.getByRole('img', { name: 'Your photo', exact: true })).toBeVisible();
    await expect(waiting).toHaveCount(1);

    // Nothing reached the server while offline (the API request context is not offline).
    expect(await entriesWith(reopened, text)).toHaveLength(0);
    expect(creates, 'no create answered while offline').toEqual([]);
  } finally {
    await context.setOffline(false);
  }

  // The network comes back with the reopened page open: the outbox sends on its own (no reload).
  await expect.poll(async () => (await entriesWith(reopened, text)).length, { timeout: 60_000 }).toBe(1);
  const card = reopened.getByRole('article').filter({ hasText: text });
  await expect(card.getByText('Waiting to send')).toHaveCount(0, { timeout: 45_000 });
  // Still exactly one copy after the replay settles (the page's, the worker's, a Background Sync).
  await reopened.waitForTimeout(2_000);
  const copies = await entriesWith(reopened, text);
  expect(copies).toHaveLength(1);
  expect(copies[0]!.files).toHaveLength(1);
  expect(copies[0]!.files[0]!.mime).toMatch(/^image\//);

  // Exactly once, observed: every attempt carried the same Idempotency-Key and exactly one answer
  // ran the handler (2xx, not `Idempotent-Replayed`), the one that made the server's copy.
  test.info().annotations.push({ type: 'journal creates', description: JSON.stringify(creates) });
  const keys = new Set(creates.map((c) => c.key));
  expect(keys.size, JSON.stringify(creates)).toBe(1);
  expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
  const executed = creates.filter((c) => c.status >= 200 && c.status < 300 && !c.replayed);
  expect(executed, JSON.stringify(creates)).toHaveLength(1);
  expect(executed[0]!.id).toBe(copies[0]!.id);

  // The list shows it once, with its photo, and still once after a reload.
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('img', { name: 'Your photo', exact: true })).toBeVisible({ timeout: 30_000 });
  await reopened.reload();
  await expect(card.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
  await expect(card).toHaveCount(1);
});
