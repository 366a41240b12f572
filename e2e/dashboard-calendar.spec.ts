import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';
import { ONE_VIEWPORT } from './support/tags';

/** Against the real server and jamie's seeded data (server/seed): nothing here is mocked. */

const STAFF = /Ali Hassan|Beth Okafor|Dan Price|Priya Shah/;

async function expectDashboardData(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
  await expect(page.getByRole('link', { name: /You have \d+ points?/ })).toBeVisible();
  const replies = page.getByRole('list', { name: 'New replies' });
  await expect(replies.getByRole('listitem').first()).toBeVisible();
  await expect(replies.getByRole('link', { name: /^Read and reply to / }).first()).toHaveAttribute('href', /^\/(entries|voice)\/comments\//);
  const roster = page.getByRole('list', { name: "Who's working today" });
  await expect(roster.getByRole('listitem').first()).toBeVisible();
  await expect(roster).toContainText(STAFF);
  await expect(roster).toContainText(/\d{2}:\d{2}–\d{2}:\d{2}/);
}

const calendarEntries = (page: Page) => page.locator('main ul.day__entries > li');

async function expectCalendarData(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page.locator('main').getByRole('heading', { level: 2 }).first()).toHaveText(/^(Today|Tomorrow|\w+day \d{1,2} \w+)/);
  await expect(calendarEntries(page).first()).toBeVisible();
}

test('dashboard and calendar show the replica, also after an offline reload', async ({ page, context }) => {
  await signInAsJamie(page);
  await expectDashboardData(page);

  await page.goto('/calendar');
  await expectCalendarData(page);
  // Jamie's seeded month ahead holds more than 10 entries: 10 first, then more.
  await expect(calendarEntries(page)).toHaveCount(10);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => calendarEntries(page).count()).toBeGreaterThan(10);

  // Offline: the service worker serves the app, the encrypted replica serves the data.
  await waitForWorker(page);
  await context.setOffline(true);
  try {
    await page.goto('/dashboard');
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await expectDashboardData(page);
    await page.reload();
    await expectDashboardData(page);
    await page.goto('/calendar');
    await expectCalendarData(page);
    await expect(calendarEntries(page)).toHaveCount(10);
  } finally {
    await context.setOffline(false);
  }
});

/** Signs a member of staff in through the API (the app itself refuses staff). */
async function signInStaff(request: APIRequestContext, username: string): Promise<(path: string, data: unknown) => Promise<void>> {
  const xsrf = async () => {
    const cookie = (await request.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie, 'XSRF-TOKEN cookie').toBeTruthy();
    return decodeURIComponent(cookie!.value);
  };
  expect((await request.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await request.post('/api/auth/login', {
    data: { username, password: DEMO_PASSWORD, client_site: DEMO_SITE },
    headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return async (path, data) => {
    const response = await request.post(path, { data, headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' } });
    expect(response.ok(), await response.text()).toBe(true);
  };
}

test("a staff reply made on the server appears on jamie's open dashboard without a reload", ONE_VIEWPORT, async ({ page, request }) => {
  await signInAsJamie(page);
  await expect(page.getByRole('list', { name: 'New replies' })).toBeVisible();

  // One of jamie's journal threads, read with jamie's own session (page.request shares the cookies).
  const list = await page.request.get('/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]==&filters[0][2]=journal', {
    headers: { Accept: 'application/json' },
  });
  expect(list.ok()).toBe(true);
  const entryId = ((await list.json()) as { data: { entry_id: string }[] }).data[0]?.entry_id;
  expect(entryId, 'jamie has a journal thread').toBeTruthy();

  const post = await signInStaff(request, 'carer.ali');
  const comment = `Loved reading this, Jamie! (${Date.now()})`;
  await post('/api/v1/projects/residents/journal/entries/comments', { entry_id: entryId, comment });

  // The event stream triggers a re-sync; the new reply lands at the top of the list.
  const first = page.getByRole('list', { name: 'New replies' }).getByRole('listitem').first();
  await expect(first).toContainText(comment);
  await expect(first).toContainText('Ali Hassan');
  await expect(first.getByRole('link', { name: 'Read and reply to Ali Hassan' })).toHaveAttribute('href', `/entries/comments/${entryId}`);
});
