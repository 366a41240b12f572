import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { PNG } from 'pngjs';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * Objectives end to end (issue 9), against the real server. The desktop and phone projects run
 * these tests one after the other on one database, so every test makes its own objective for jamie
 * through the staff API (carer.ali, as staff tools would) and counts points relative to the
 * balance it found.
 */

test.use({ bypassCSP: true }); // axe is injected as a script tag

interface ServerComment {
  id: string;
  comment: string;
  is_review: boolean;
  files: { id: string; mime: string }[];
}
interface ServerLog {
  id: string;
  status: 'current' | 'completed';
  reviewed: boolean;
  comments: ServerComment[];
  task: { title: string; form: { name: string } };
}
interface PointsPage {
  balance: number;
  data: { delta: number; reason: string; source_id: string | null }[];
}

function smallPng(): Buffer {
  const png = new PNG({ width: 40, height: 30 });
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const i = (png.width * y + x) << 2;
      png.data[i] = (x * 6) & 255;
      png.data[i + 1] = 160;
      png.data[i + 2] = (y * 8) & 255;
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

async function residentId(page: Page): Promise<string> {
  const account = await json<{ user?: { resident?: { id: string } }; data?: { user?: { resident?: { id: string } } } }>(page, '/api/v1/auth/user');
  const id = (account.user ?? account.data?.user)?.resident?.id;
  expect(id, "jamie's resident id").toBeTruthy();
  return id!;
}

/** jamie's log as the server has it (jamie's own session: page.request shares the cookies). */
async function serverLog(page: Page, resident: string, logId: string): Promise<ServerLog | undefined> {
  for (const tab of ['complete', 'incomplete']) {
    const page1 = await json<{ data: ServerLog[] }>(page, `/api/v1/projects/residents/${resident}/tasks/${tab}?per_page=100`);
    const found = page1.data.find((l) => l.id === logId);
    if (found) return found;
  }
  return undefined;
}

const points = (page: Page, resident: string) => json<PointsPage>(page, `/api/v1/projects/residents/${resident}/points?per_page=500`);

/** carer.ali, signed in through the real API in a context of its own. */
async function staff(baseURL: string): Promise<{ post<T>(path: string, data: unknown): Promise<T>; get<T>(path: string): Promise<T>; dispose(): Promise<void> }> {
  const context: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  const xsrf = async () => decodeURIComponent((await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  expect((await context.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await context.post('/api/auth/login', {
    data: { username: 'carer.ali', password: DEMO_PASSWORD, client_site: DEMO_SITE },
    headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return {
    async post<T>(path: string, data: unknown) {
      const response = await context.post(path, { data, headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' } });
      expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
      return ((await response.json()) as { data: T }).data;
    },
    async get<T>(path: string) {
      const response = await context.get(path, { headers: { Accept: 'application/json' } });
      expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
      return (await response.json()) as T;
    },
    dispose: () => context.dispose(),
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/** A new objective for jamie from a form; completed with these answers when given. */
async function makeObjective(baseURL: string, resident: string, form: string, title: string, answers?: Record<string, unknown>): Promise<string> {
  const ali = await staff(baseURL);
  try {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>('/api/v1/forms?per_page=100');
    const formId = forms.data.find((f) => f.name === form)?.id;
    expect(formId, `the form ${form}`).toBeTruthy();
    const log = await ali.post<{ id: string }>(`/api/v1/projects/residents/${resident}/tasks`, { form_id: formId, title, task_date: today(), description: 'Made for an end-to-end test.' });
    if (answers) await ali.post(`/api/v1/tasks/logs/${log.id}?_method=PUT`, { answers, status: 'completed' });
    return log.id;
  } finally {
    await ali.dispose();
  }
}

async function staffComment(baseURL: string, logId: string, comment: string): Promise<void> {
  const ali = await staff(baseURL);
  try {
    await ali.post('/api/v1/tasks/logs/comments', { task_log_id: logId, comment });
  } finally {
    await ali.dispose();
  }
}

/**
 * From now on, how many articles of the page hold `text`: checked at every change (a
 * MutationObserver sees every state React commits) and every 50 ms (as e2e/journal-write.spec.ts).
 */
async function watchCopies(page: Page, text: string): Promise<void> {
  await page.evaluate((wanted) => {
    const seen: { at: number; copies: number }[] = [];
    const start = performance.now();
    let last = -1;
    const sample = () => {
      let copies = 0;
      for (const card of Array.from(document.querySelectorAll('.thread__list article'))) if (card.textContent?.includes(wanted)) copies += 1;
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
const copiesSeen = (page: Page) => page.evaluate(() => (window as unknown as { __copiesSeen?: { at: number; copies: number }[] }).__copiesSeen ?? []);

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('the lists: Current and Completed tabs, completed grouped by category, the category page; axe on each', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInAsJamie(page);
  const resident = await residentId(page);
  const stamp = Date.now();
  const currentTitle = `Plan a bus trip ${stamp}`;
  const doneTitle = `Swim twenty lengths ${stamp}`;
  await makeObjective(baseURL!, resident, 'Independence skills', currentTitle);
  await makeObjective(baseURL!, resident, 'Health and wellbeing', doneTitle, { activity: 'Swimming', minutes: 45, enjoyed: 'yes' });

  await mainNav(page).getByRole('link', { name: 'Objectives' }).click();
  await expect(page).toHaveURL(/\/objectives$/);
  await expect(page).toHaveTitle('Hearth - Objectives');
  const tabs = page.getByRole('tablist', { name: 'Objectives' }).getByRole('tab');
  await expect(tabs).toHaveText(['Current', 'Completed']);
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  // Newest task date first: today's objective is at the top of Current.
  const current = page.getByRole('list', { name: 'Current objectives' });
  await expect(current.getByRole('article').first()).toContainText(currentTitle, { timeout: 30_000 });
  await expectNoAxeViolations(page, 'objectives, Current');

  // The keyboard moves between the tabs, and the address keeps the choice.
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(page).toHaveURL(/\/objectives\?tab=1$/);
  const group = page.getByRole('region', { name: 'Health and wellbeing' });
  const mine = group.getByRole('article').filter({ hasText: doneTitle });
  await expect(mine).toHaveCount(1, { timeout: 30_000 });
  await expect(mine).toContainText('Ready to review');
  await expect(page.getByRole('list', { name: 'Completed Health and wellbeing objectives' }).getByRole('article').first()).toContainText(doneTitle);
  await expectNoAxeViolations(page, 'objectives, Completed');

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Completed' })).toHaveAttribute('aria-selected', 'true');

  await group.getByRole('link', { name: 'All Health and wellbeing objectives' }).click();
  await expect(page).toHaveURL(/\/objectives\/category\/Health%20and%20wellbeing$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Health and wellbeing' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Completed' }).getByRole('article').filter({ hasText: doneTitle })).toHaveCount(1);
  await expect(page.getByText(currentTitle)).toHaveCount(0);
  await expectNoAxeViolations(page, 'objectives category');

  await page.getByRole('link', { name: doneTitle }).click();
  await expect(page.getByRole('heading', { level: 1, name: doneTitle })).toBeVisible();
});

test('jamie reviews a completed objective with a photo while offline; it survives closing the page; online: one review, +20 once, the counter and a staff comment arrive without a reload', async ({ page, context, baseURL }) => {
  test.setTimeout(240_000);
  await signInAsJamie(page);
  await waitForWorker(page);
  const resident = await residentId(page);
  const stamp = Date.now();
  const title = `Cook pancakes ${stamp}`;
  const logId = await makeObjective(baseURL!, resident, 'Health and wellbeing', title, { activity: 'Made pancakes for breakfast', minutes: 30, enjoyed: 'yes', reflection: 'Full and happy' });
  const before = (await points(page, resident)).balance;

  // Opened from the list (the replica has synced it), read as a person reads it.
  await page.goto('/objectives?tab=1');
  await page.getByRole('link', { name: title }).click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveTitle('Hearth - Objective');
  const form = page.getByRole('region', { name: 'How it went' });
  await expect(form.getByText('Made pancakes for breakfast')).toBeVisible();
  await expect(form.getByText('Full and happy')).toBeVisible();
  const review = page.getByRole('region', { name: 'Your review' });
  const text = review.getByRole('textbox', { name: /How do you think it went\?/ });
  await expect(text).toBeVisible();
  await expectNoAxeViolations(page, 'objective, review form');

  const words = `They were a bit flat but tasted great ${stamp}`;
  let reopened: Page;
  await context.setOffline(true);
  try {
    await expect(review.getByText(/Your 20 points arrive when it is sent/)).toBeVisible();
    await text.fill(words);
    await review.getByRole('group', { name: /Add photos/ }).getByLabel('Add files').setInputFiles({ name: 'pancakes.png', mimeType: 'image/png', buffer: smallPng() });
    await expect(review.getByRole('img', { name: /Add photos/ })).toBeVisible({ timeout: 20_000 });

    // The draft survives a reload (encrypted on the device), once it says it is saved.
    await expect(review.getByText('Draft saved on this device.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await expect(review.getByRole('textbox', { name: /How do you think it went\?/ })).toHaveValue(words, { timeout: 20_000 });
    await expect(review.getByRole('img', { name: /Add photos/ })).toBeVisible();

    await review.getByRole('button', { name: 'Send my review' }).click();
    await expect(page).toHaveURL(new RegExp(`/objectives/${logId}/success$`));
    await expect(page.getByRole('heading', { level: 1, name: '+20 points' })).toBeVisible();
    await expect(page.getByText(/Your 20 points arrive when it is sent/)).toBeVisible();
    await expect(page.getByText(`You have ${before} points · 20 points on their way.`)).toBeVisible();
    await expectNoAxeViolations(page, 'objective success');

    // Close the page; a new one, still offline, shows the review waiting, and the dashboard the
    // points as on their way.
    await page.close();
    reopened = await context.newPage();
    await reopened.goto('/dashboard');
    await expect(reopened.getByText('You are currently offline')).toBeVisible();
    await expect(reopened.getByRole('link', { name: new RegExp(`You have ${before} points · 20 on their way`) })).toBeVisible({ timeout: 20_000 });
    await mainNav(reopened).getByRole('link', { name: 'Objectives' }).click();
    await reopened.getByRole('tab', { name: 'Completed' }).click();
    const card = reopened.getByRole('article').filter({ hasText: title });
    await expect(card.getByText('Waiting to send')).toBeVisible({ timeout: 20_000 });
    await card.getByRole('link', { name: title }).click();
    const waiting = reopened.getByRole('region', { name: 'Your review' });
    await expect(waiting.getByText(words)).toBeVisible();
    await expect(waiting.getByText(/waiting to be sent/)).toBeVisible();
    expect((await serverLog(reopened, resident, logId))?.comments.filter((c) => c.is_review)).toEqual([]);
    await watchCopies(reopened, words);
  } finally {
    await context.setOffline(false);
  }

  // Online again, with the page open: sent once, settled, never shown twice.
  const thread = reopened.getByRole('list', { name: 'Comments, newest first' });
  await expect(thread.getByRole('article').filter({ hasText: words })).toHaveCount(1, { timeout: 60_000 });
  await expect(reopened.getByRole('region', { name: 'Your review' }).getByText(/waiting to be sent/)).toHaveCount(0, { timeout: 60_000 });
  await expect.poll(async () => (await serverLog(reopened, resident, logId))?.comments.filter((c) => c.is_review).length, { timeout: 60_000 }).toBe(1);
  const saved = (await serverLog(reopened, resident, logId))!;
  expect(saved.reviewed).toBe(true);
  const onServer = saved.comments.filter((c) => c.is_review);
  expect(onServer).toHaveLength(1);
  expect(onServer[0]!.comment).toBe(words);
  expect(onServer[0]!.files).toHaveLength(1);
  expect(onServer[0]!.files[0]!.mime).toMatch(/^image\//);
  const ledger = await points(reopened, resident);
  expect(ledger.data.filter((e) => e.reason === 'task_log_review' && e.source_id === logId).map((e) => e.delta)).toEqual([20]);
  expect(ledger.balance).toBe(before + 20);
  await reopened.waitForTimeout(2_000);
  const timeline = await copiesSeen(reopened);
  expect(Math.max(...timeline.map((s) => s.copies)), `the review at most once in the thread; over time (ms, copies): ${JSON.stringify(timeline)}`).toBe(1);
  await expect(thread.getByRole('article').filter({ hasText: words }).getByRole('img', { name: 'pancakes.png' })).toBeVisible({ timeout: 30_000 });
  await expectNoAxeViolations(reopened, 'objective, reviewed');

  // A staff comment arrives in the open thread, at the front, without a reload.
  const note = `Lovely pancakes, Jamie! ${stamp}`;
  await staffComment(baseURL!, logId, note);
  await expect(thread.getByRole('article').first()).toContainText(note, { timeout: 30_000 });
  await expect(thread.getByRole('article').first()).toHaveAttribute('aria-label', 'Comment from Ali Hassan');
  await expect(thread.getByRole('article').first().getByRole('link', { name: /Edit/ })).toHaveCount(0);

  // The edit screen of the review (own comments only).
  await thread.getByRole('article').filter({ hasText: words }).getByRole('link', { name: 'Edit your review' }).click();
  await expect(reopened.getByRole('heading', { level: 1, name: 'Edit your review' })).toBeVisible();
  await expect(reopened.getByRole('textbox', { name: 'Your review' })).toHaveValue(words);
  await expectNoAxeViolations(reopened, 'edit review');
  await reopened.getByRole('button', { name: 'Cancel' }).click();

  // The dashboard's counter shows the points without a reload, none on their way.
  await mainNav(reopened).getByRole('link', { name: 'Dashboard' }).click();
  const counter = reopened.getByRole('link', { name: new RegExp(`You have ${before + 20} points`) });
  await expect(counter).toBeVisible({ timeout: 30_000 });
  await expect(counter).not.toContainText('on their way');
});
