import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * Rewards end to end (issue 10), against the real server. The desktop and phone projects run these
 * tests one after the other on one database, so every test makes its own rewards for jamie's home
 * through the staff API (carer.ali, as staff tools would), priced from the balance it reads through
 * the API at the start, and counts points relative to that balance.
 */

test.use({ bypassCSP: true }); // axe is injected as a script tag

interface Exchange {
  id: string;
  reward_id: string;
  status: 'pending' | 'approved' | 'denied';
  points: number;
}

async function json<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { Accept: 'application/json' } });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function jamie(page: Page): Promise<{ resident: string; home: string }> {
  type User = { resident?: { id: string; home_id: string } };
  const account = await json<{ user?: User; data?: { user?: User } }>(page, '/api/v1/auth/user');
  const resident = (account.user ?? account.data?.user)?.resident;
  expect(resident?.id, "jamie's resident record").toBeTruthy();
  return { resident: resident!.id, home: resident!.home_id };
}

const balance = async (page: Page, resident: string) => (await json<{ balance: number }>(page, `/api/v1/projects/residents/${resident}/points?per_page=1`)).balance;
const exchangesOf = async (page: Page, resident: string, rewardId: string) =>
  (await json<{ data: Exchange[] }>(page, `/api/v1/projects/residents/${resident}/rewards/history?per_page=500`)).data.filter((e) => e.reward_id === rewardId);

/** carer.ali, signed in through the real API in a context of its own. */
async function staff(baseURL: string): Promise<{ post<T>(path: string, data: unknown): Promise<T>; dispose(): Promise<void> }> {
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
    dispose: () => context.dispose(),
  };
}

async function asStaff<T>(baseURL: string, work: (ali: Awaited<ReturnType<typeof staff>>) => Promise<T>): Promise<T> {
  const ali = await staff(baseURL);
  try {
    return await work(ali);
  } finally {
    await ali.dispose();
  }
}

const newReward = (baseURL: string, home: string, name: string, points: number) =>
  asStaff(baseURL, (ali) => ali.post<{ id: string }>(`/api/v1/homes/${home}/rewards`, { name, points, description: 'Made for an end-to-end test.' }));
const decide = (baseURL: string, exchangeId: string, decision: 'approve' | 'deny', note: string) =>
  asStaff(baseURL, (ali) => ali.post(`/api/v1/reward-exchanges/${exchangeId}/${decision}`, { note }));

const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
const counter = (page: Page) => page.getByRole('link', { name: /^You have \d+ points?/ });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('jamie swaps points offline; after closing and reopening the page and going online the server has one exchange; staff approve and the history and counter follow without a reload; axe on every screen', async ({ page, context, baseURL }) => {
  test.setTimeout(240_000);
  await signInAsJamie(page);
  await waitForWorker(page);
  const { resident, home } = await jamie(page);
  const start = await balance(page, resident);
  const cost = Math.min(5, start);
  expect(cost, 'jamie has points to swap').toBeGreaterThan(0);
  const name = `Film night ${Date.now()}`;
  const reward = await newReward(baseURL!, home, name, cost);

  // From the dashboard's counter to the catalogue (the replica has the new reward, live).
  await expect(counter(page)).toContainText(`You have ${points(start)}`, { timeout: 30_000 });
  await counter(page).click();
  await expect(page).toHaveURL(/\/rewards$/);
  await expect(page).toHaveTitle('Hearth - Rewards');
  const card = page.getByRole('article', { name });
  await expect(card).toContainText(`Costs ${points(cost)}`, { timeout: 30_000 });
  await expect(card).toContainText('You have enough points');
  await expect(page.getByRole('article', { name: 'A new book' }).locator('img')).toBeVisible({ timeout: 30_000 });
  await expectNoAxeViolations(page, 'rewards');

  await card.getByRole('link', { name: `Swap points for ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/rewards/${reward.id}/confirmation$`));
  await expect(page.getByRole('heading', { level: 1, name: `Swap ${points(cost)} for ${name}?` })).toBeVisible();
  await expect(page.getByText(`You have ${points(start)}. After this swap you will have ${points(start - cost)}.`)).toBeVisible();
  await expectNoAxeViolations(page, 'reward confirmation');

  let reopened: Page;
  await context.setOffline(true);
  try {
    await page.getByRole('button', { name: 'Yes, swap my points' }).click();
    await expect(page).toHaveURL(new RegExp(`/rewards/${reward.id}/congratulations\\?exchange=`));
    await expect(page).toHaveTitle('Hearth - Congratulations');
    await expect(page.getByRole('heading', { level: 1, name: 'Well done!' })).toBeVisible();
    await expect(page.getByText('You are offline. Your swap is saved on this device and will be sent when you are back online.')).toBeVisible();
    await expect(page.getByText(`You now have ${points(start - cost)}.`)).toBeVisible();
    await expectNoAxeViolations(page, 'reward congratulations');

    // Close the page; a new one, still offline, shows the swap waiting and its cost set aside.
    await page.close();
    reopened = await context.newPage();
    await reopened.goto('/dashboard');
    await expect(reopened.getByText('You are currently offline')).toBeVisible();
    await expect(counter(reopened)).toContainText(`You have ${points(start - cost)} · ${cost} set aside for a swap`, { timeout: 20_000 });
    await counter(reopened).click();
    await reopened.getByRole('link', { name: 'Your reward history' }).click();
    await expect(reopened).toHaveTitle('Hearth - Reward history');
    const waiting = reopened.getByRole('article', { name }).first();
    await expect(waiting).toContainText('Waiting to send', { timeout: 20_000 });
    await expect(waiting).toContainText(`Points: −${points(cost)}`);
    await expectNoAxeViolations(reopened, 'reward history, waiting to send');
    expect(await exchangesOf(reopened, resident, reward.id)).toEqual([]);
  } finally {
    await context.setOffline(false);
  }

  // Online again with the page open: sent once, and staff have it.
  const item = reopened.getByRole('article', { name });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('Waiting for staff', { timeout: 60_000 });
  await expect.poll(async () => (await exchangesOf(reopened, resident, reward.id)).length, { timeout: 60_000 }).toBe(1);
  const [exchange] = await exchangesOf(reopened, resident, reward.id);
  expect(exchange).toMatchObject({ status: 'pending', points: cost });
  expect(await balance(reopened, resident)).toBe(start - cost);

  // Staff approve: the open history follows without a reload, the points stay spent.
  await decide(baseURL!, exchange!.id, 'approve', 'Enjoy the film!');
  await expect(item).toContainText('Approved', { timeout: 30_000 });
  await expect(item).toContainText('Staff said: “Enjoy the film!”');
  await expect(item).toHaveCount(1);
  await expect(reopened.locator('.rewards__balance')).toContainText(`You have ${points(start - cost)}`);
  await expect(reopened.locator('.rewards__balance')).not.toContainText('set aside');
  await expectNoAxeViolations(reopened, 'reward history, approved');

  await mainNav(reopened).getByRole('link', { name: 'Dashboard' }).click();
  await expect(counter(reopened)).toContainText(`You have ${points(start - cost)}`, { timeout: 30_000 });
  await expect(counter(reopened)).not.toContainText('set aside');
  expect(await balance(reopened, resident)).toBe(start - cost);
});

test('an unaffordable reward cannot be confirmed; a denied swap gives the points back and the history and counter say so', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signInAsJamie(page);
  const { resident, home } = await jamie(page);
  const start = await balance(page, resident);
  const cost = Math.min(3, start);
  expect(cost, 'jamie has points to swap').toBeGreaterThan(0);
  const stamp = Date.now();
  const dear = await newReward(baseURL!, home, `Holiday ${stamp}`, start + 50);
  const cheap = await newReward(baseURL!, home, `Ice cream ${stamp}`, cost);

  await counter(page).click();
  const dearCard = page.getByRole('article', { name: `Holiday ${stamp}` });
  await expect(dearCard).toContainText('You need 50 more points', { timeout: 30_000 });
  await expect(dearCard.getByRole('link')).toHaveCount(0);

  // Even by its address, there is nothing to confirm: it says why.
  await page.goto(`/rewards/${dear.id}/confirmation`);
  await expect(page.getByRole('heading', { level: 1, name: `Holiday ${stamp}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(`so you need 50 more points before you can swap for it`)).toBeVisible();
  await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
  await expectNoAxeViolations(page, 'reward confirmation, unaffordable');

  // Swapped online, then denied by staff: the points come back.
  await page.goto(`/rewards/${cheap.id}/confirmation`);
  await page.getByRole('button', { name: 'Yes, swap my points' }).click({ timeout: 30_000 });
  await expect(page.getByText('A member of staff will look at it and confirm it with you.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'See your reward history' }).click();
  const item = page.getByRole('article', { name: `Ice cream ${stamp}` });
  await expect(item).toContainText('Waiting for staff', { timeout: 30_000 });
  await expect(page.locator('.rewards__balance')).toContainText(`You have ${points(start - cost)}`);
  await expect.poll(async () => (await exchangesOf(page, resident, cheap.id)).length, { timeout: 30_000 }).toBe(1);
  const [exchange] = await exchangesOf(page, resident, cheap.id);

  await decide(baseURL!, exchange!.id, 'deny', 'Not today, sorry');
  await expect(item).toContainText('Denied', { timeout: 30_000 });
  await expect(item).toContainText(`Points given back: +${points(cost)}`);
  await expect(item).toContainText('Staff said: “Not today, sorry”');
  await expect(page.locator('.rewards__balance')).toContainText(`You have ${points(start)}`, { timeout: 30_000 });
  await expectNoAxeViolations(page, 'reward history, denied');

  await mainNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(counter(page)).toContainText(`You have ${points(start)}`, { timeout: 30_000 });
  expect(await balance(page, resident)).toBe(start);
});
