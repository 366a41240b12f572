import { randomUUID } from 'node:crypto';
import { type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { changedPushMessage, pushUrls } from '../src/contract/push';
import { PUSH_SUBSCRIBE_FAILED } from '../src/features/dashboard/actions/subscribe-to-push';
import { withProfile } from './support/profile';
import { keptAnswers, pushLab, recordedPulls, type PushLab } from './support/push';
import { signInAsJamie } from './support/sign-in';
import { staffApi } from './support/staff';
import { waitForWorker } from './support/worker';
import { ONE_VIEWPORT } from './support/tags';

/**
 * Push proven end to end without the internet (issue 10), in Debian's Chromium against the real
 * server, with Hearth's real service worker. The server half (web-push → a local HTTPS push service,
 * VAPID checked, the aes128gcm body decrypted) is tests/server/push-local-service.test.ts; this is the
 * browser half: the very payloads the server sends (`changedPushMessage`, the builder the server
 * calls) delivered to the worker through the DevTools protocol (e2e/support/push.ts says how, and
 * what a script-dispatched click can and cannot do).
 */

const PRODUCT = 'Hearth';
const NEUTRAL = { title: 'Hearth', body: 'Something new in Hearth', tag: 'hearth-changed' };

let lab: PushLab;
test.afterEach(async () => {
  await lab?.dispose();
});

async function residentOf(page: Page): Promise<{ resident: string }> {
  const response = await page.request.get('/api/v1/auth/user', { headers: { Accept: 'application/json' } });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { user?: { resident?: { id: string } }; data?: { user?: { resident?: { id: string } } } };
  const resident = (body.user ?? body.data?.user)?.resident?.id;
  expect(resident, "jamie's resident id").toBeTruthy();
  return { resident: resident! };
}

/** Signs jamie in, waits for the worker, and leaves the dashboard showing the replica. */
async function jamieWithWorker(page: Page): Promise<void> {
  await signInAsJamie(page);
  await waitForWorker(page);
  await expect(page.getByRole('list', { name: 'New replies' }).getByRole('listitem').first()).toBeVisible();
}

/** A Hearth window, open and showing its dashboard (so a click has somewhere to route). */
async function openHearth(context: BrowserContext, path = '/dashboard'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return page;
}

/** Closes a Hearth window; resolves once the worker no longer counts it (a push then finds the app closed). */
async function closeHearth(page: Page): Promise<void> {
  await page.close();
  await expect.poll(() => lab.windows(), { message: 'no Hearth window left' }).toEqual([]);
}

/** An objective for jamie made by staff through the API: the log id. */
async function newObjective(baseURL: string, resident: string, title: string): Promise<string> {
  const ali = await staffApi(baseURL);
  try {
    const forms = await ali.get<{ data: { id: string; name: string }[] }>('/api/v1/forms?per_page=100');
    const formId = forms.data.find((f) => f.name === 'Independence skills')?.id;
    expect(formId, 'the demo form').toBeTruthy();
    const log = await ali.post<{ id: string }>(`/api/v1/projects/residents/${resident}/tasks`, { form_id: formId, title, task_date: new Date().toISOString().slice(0, 10) });
    return log.id;
  } finally {
    await ali.dispose();
  }
}

test('the opt-in asks for permission; Chromium without a push service refuses a subscription, and the opt-in says so', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: new URL(baseURL!).origin });
  await jamieWithWorker(page);
  const optIn = page.getByRole('region', { name: 'Get a notification when staff reply' });
  await optIn.getByRole('button', { name: 'Turn on notifications' }).click();
  // Debian's Chromium here has no reachable push service (and Playwright's contexts are off the
  // record): PushManager.subscribe fails, so no subscription exists for the server to send to.
  await expect(page.getByText(PUSH_SUBSCRIBE_FAILED)).toBeVisible();
  await expect(optIn.getByRole('button', { name: 'Turn on notifications' })).toBeEnabled();
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null)).toBe(true);
});

test('in a profile on disk with no network, the push service never answers: after 30 s the opt-in says so instead of spinning', ONE_VIEWPORT, async () => {
  test.setTimeout(150_000);
  await withProfile(async (context, page) => {
    await context.grantPermissions(['notifications'], { origin: new URL(test.info().project.use.baseURL!).origin });
    await jamieWithWorker(page);
    const optIn = page.getByRole('region', { name: 'Get a notification when staff reply' });
    await optIn.getByRole('button', { name: 'Turn on notifications' }).click();
    await expect(optIn.getByRole('button', { name: 'Turning on…' })).toBeDisabled();
    // The opt-in's own limit is 30 s (subscribe-to-push.ts); Chromium here waits for its push service for ever.
    await expect(page.getByText(PUSH_SUBSCRIBE_FAILED)).toBeVisible({ timeout: 60_000 });
    await expect(optIn.getByRole('button', { name: 'Turn on notifications' })).toBeEnabled();
  });
});

test('a staff reply: the worker pulls it ahead and shows a content-free notification; offline afterwards the app has it and the click opens the thread', ONE_VIEWPORT, async ({ page, context, baseURL }) => {
  test.setTimeout(150_000);
  lab = await pushLab(context, baseURL!);
  await jamieWithWorker(page);

  // One of jamie's journal threads (jamie's own session: page.request shares the cookies), opened once.
  const list = await page.request.get('/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]==&filters[0][2]=journal', { headers: { Accept: 'application/json' } });
  const entryId = ((await list.json()) as { data: { entry_id: string }[] }).data[0]?.entry_id;
  expect(entryId, 'jamie has a journal thread').toBeTruthy();
  const thread = pushUrls.entryThread('journal', entryId!);
  await page.goto(thread);
  await expect(page.getByRole('form', { name: 'Reply' })).toBeVisible();
  // The replications have recorded the requests they make next (what the worker will make for them),
  // the thread's too, under its screen.
  await expect.poll(() => recordedPulls(page), { timeout: 30_000 }).toEqual(expect.arrayContaining(['feedback', 'journal', `comments:journal:${entryId}`]));
  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'New replies' }).getByRole('listitem').first()).toBeVisible();

  // The app is closed; staff reply.
  await closeHearth(page);
  const comment = `Push e2e: well done today (${Date.now().toString(36)})`;
  const ali = await staffApi(baseURL!);
  try {
    await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: entryId, comment });
  } finally {
    await ali.dispose();
  }

  // The push the server sends for that reply (server/routes/comments/create.ts builds it the same way).
  await lab.deliver(changedPushMessage({ collections: ['feedback', 'journal'], url: thread }, PRODUCT));
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([{ ...NEUTRAL, icon: `${new URL(baseURL!).origin}/icons/icon-192.png`, badge: `${new URL(baseURL!).origin}/icons/badge-96.png`, data: { url: thread } }]);
  // Pulled ahead: the next pages of the feedback, the journal and that thread are kept (sealed).
  await expect.poll(() => keptAnswers(lab), { timeout: 30_000 }).toEqual(expect.arrayContaining(['feedback', 'journal', `comments:journal:${entryId}`]));
  expect(await keptAnswers(lab)).not.toContain('calendar');

  // Offline from here: the app opens up to date from what the worker pulled.
  await context.setOffline(true);
  try {
    const app = await openHearth(context);
    await expect(app.getByText('You are currently offline')).toBeVisible();
    const first = app.getByRole('list', { name: 'New replies' }).getByRole('listitem').first();
    await expect(first).toContainText(comment, { timeout: 20_000 });

    // The click routes this window to the thread (in place: the page is not reloaded).
    await app.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
    await lab.clickNotification();
    await expect(app).toHaveURL(`${thread}?from=notification`);
    await expect(app.getByRole('heading', { level: 1, name: 'Comments' })).toBeVisible();
    await expect(app.getByText(comment)).toBeVisible({ timeout: 20_000 });
    expect(await app.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expect.poll(() => lab.notifications(), { message: 'the notification closes on click' }).toEqual([]);
  } finally {
    await context.setOffline(false);
  }
});

test('a new objective: the click opens /objectives/{id}; with no Hearth window the worker asks to open it', ONE_VIEWPORT, async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  lab = await pushLab(context, baseURL!);
  await jamieWithWorker(page);
  const { resident } = await residentOf(page);
  await closeHearth(page);

  const title = `Tidy the bike shed ${Date.now().toString(36)}`;
  const logId = await newObjective(baseURL!, resident, title);
  const push = changedPushMessage({ collections: ['tasks'], url: pushUrls.objective(logId) }, PRODUCT);

  await lab.deliver(push);
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([expect.objectContaining({ ...NEUTRAL, data: { url: `/objectives/${logId}` } })]);

  // No Hearth window: the worker opens one at the objective (the browser refuses a script's click that).
  const openWindowCalls = await lab.recordOpenWindow();
  await lab.clickNotification();
  await expect.poll(openWindowCalls).toEqual([`${new URL(baseURL!).origin}/objectives/${logId}?from=notification`]);

  // With a Hearth window open, the click shows the objective there.
  await lab.deliver(push);
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toHaveLength(1);
  const app = await openHearth(context);
  await lab.clickNotification();
  await expect(app).toHaveURL(`/objectives/${logId}?from=notification`);
  await expect(app.getByRole('heading', { level: 1, name: title })).toBeVisible({ timeout: 20_000 });
});

test('a reward decision opens the reward history', ONE_VIEWPORT, async ({ page, context, baseURL }) => {
  lab = await pushLab(context, baseURL!);
  await jamieWithWorker(page);
  await closeHearth(page);
  // What the server sends when staff deny an exchange (server/domain/rewards/exchanges.ts); approving sends reward_history only.
  await lab.deliver(changedPushMessage({ collections: ['reward_history', 'points', 'resident'], url: pushUrls.rewardHistory }, PRODUCT));
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([expect.objectContaining({ ...NEUTRAL, data: { url: '/rewards/history' } })]);
  const app = await openHearth(context);
  await lab.clickNotification();
  await expect(app).toHaveURL('/rewards/history?from=notification');
  await expect(app).toHaveTitle('Hearth - Reward history');
});

test('gone or not ours: an objective or entry that is not there, or a url from elsewhere, leads to the dashboard', ONE_VIEWPORT, async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  lab = await pushLab(context, baseURL!);
  await jamieWithWorker(page);
  await closeHearth(page);
  const gone = 'What that notification was about is no longer in Hearth, so here is your dashboard.';

  for (const url of [pushUrls.objective(randomUUID()), pushUrls.entryThread('journal', randomUUID())]) {
    await lab.deliver(changedPushMessage({ collections: url.startsWith('/objectives') ? ['tasks'] : ['feedback', 'journal'], url }, PRODUCT));
    await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([expect.objectContaining({ data: { url } })]);
    const tab = await openHearth(context, '/calendar');
    await lab.clickNotification();
    await expect(tab, url).toHaveURL('/dashboard');
    await expect(tab.getByText(gone)).toBeVisible();
    await closeHearth(tab);
  }

  // Not a path of this app (a tampered payload): the notification itself leads to the dashboard.
  await lab.deliver(JSON.stringify({ type: 'changed', collections: ['tasks'], url: '//evil.example/objectives/1' }));
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([expect.objectContaining({ ...NEUTRAL, data: { url: '/dashboard' } })]);
  const tab = await openHearth(context, '/calendar');
  await lab.clickNotification();
  await expect(tab).toHaveURL('/dashboard?from=notification');
  await expect(tab.getByRole('heading', { level: 1 })).toContainText(/^Hi/);
  await closeHearth(tab);

  // Two pushes for two screens before anyone looked: one notification, and it opens the dashboard.
  await lab.deliver(changedPushMessage({ collections: ['tasks'], url: pushUrls.objective(randomUUID()) }, PRODUCT));
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toHaveLength(1);
  await lab.deliver(changedPushMessage({ collections: ['reward_history'], url: pushUrls.rewardHistory }, PRODUCT));
  await expect.poll(() => lab.notifications(), { timeout: 30_000 }).toEqual([expect.objectContaining({ ...NEUTRAL, data: { url: '/dashboard' } })]);
});
