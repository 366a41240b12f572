import { type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * The offline write path end to end, against the real server: a journal look chosen with no
 * network waits encrypted on the device (it survives closing the page), is sent when the network
 * returns, and the server applies it exactly once.
 */

const PENDING_OFFLINE = 'Saved on this device — it will be sent when you are online';

interface Sent {
  method: string;
  key: string | null;
  body: string | null;
  fromWorker: boolean;
  status: number | null;
  replayed: boolean;
  updatedAt: string | null;
}

/** Every app-settings request the page or the service worker makes, with its answer. */
function watchAppSettings(context: BrowserContext): Sent[] {
  const sent: Sent[] = [];
  const isAppSettings = (url: string) => /\/api\/v1\/projects\/residents\/[^/]+\/app-settings(\?|$)/.test(url);
  context.on('response', async (response) => {
    const request = response.request();
    if (!isAppSettings(request.url()) || request.method() === 'GET') return;
    const headers = await request.allHeaders();
    const entry: Sent = {
      method: request.method(),
      key: headers['idempotency-key'] ?? null,
      body: request.postData(),
      fromWorker: request.serviceWorker() !== null,
      status: response.status(),
      replayed: (await response.allHeaders())['idempotent-replayed'] === 'true',
      updatedAt: null,
    };
    sent.push(entry);
    try {
      entry.updatedAt = ((await response.json()) as { data?: { updated_at?: string } }).data?.updated_at ?? null;
    } catch {
      // body not available (the test then fails on the updated_at check, not silently)
    }
  });
  return sent;
}

interface ResidentView {
  id: string;
  updated_at: string;
  app_settings: { journal_colour: string; journal_paper: string; theme: string };
}

async function residentOnServer(page: Page, residentId: string): Promise<ResidentView> {
  const response = await page.request.get(`/api/v1/projects/residents/${residentId}`, { headers: { Accept: 'application/json' } });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: ResidentView }).data;
}

test('a journal look chosen offline survives closing the page and reaches the server exactly once', async ({ page, context }) => {
  // Coming back online on a loaded two-core machine: allow the outbox its safety-net retry.
  test.setTimeout(120_000);
  const sent = watchAppSettings(context);

  await signInAsJamie(page);
  await waitForWorker(page);

  const user = await page.request.get('/api/v1/auth/user', { headers: { Accept: 'application/json' } });
  expect(user.ok()).toBe(true);
  const account = (await user.json()) as { user?: { resident?: { id: string } }; data?: { user?: { resident?: { id: string } } } };
  const residentId = (account.user ?? account.data?.user)?.resident?.id;
  expect(residentId, "jamie's resident id").toBeTruthy();
  const before = await residentOnServer(page, residentId!);
  // Something different from what the server holds (the phone project runs on the same server).
  const colour = before.app_settings.journal_colour === 'lavender' ? { value: 'mint', name: 'Mint' } : { value: 'lavender', name: 'Lavender' };
  const paper = before.app_settings.journal_paper === 'dotted' ? { value: 'squared', name: 'Squared' } : { value: 'dotted', name: 'Dotted' };

  // The replica has jamie's details before the network goes (the screen shows the saved look).
  const nameOf = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);
  await page.goto('/journal/customise');
  await expect(page.getByRole('radio', { name: nameOf(before.app_settings.journal_colour), exact: true })).toBeChecked();

  await context.setOffline(true);
  let reopened: Page;
  try {
    await page.reload();
    await expect(page).toHaveTitle('Hearth - Customise journal');
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await page.getByRole('radio', { name: colour.name, exact: true }).check();
    await page.getByRole('radio', { name: paper.name, exact: true }).check();
    await expect(page.getByTestId('journal-preview')).toHaveClass(new RegExp(`journal-surface--${paper.value}\\b.*journal-surface--colour-${colour.value}\\b`));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(PENDING_OFFLINE)).toBeVisible();

    // Close the page; a new one, still offline, shows the choice from the encrypted replica, still pending.
    await page.close();
    reopened = await context.newPage();
    await reopened.goto('/journal/customise');
    await expect(reopened.getByRole('radio', { name: colour.name, exact: true })).toBeChecked();
    await expect(reopened.getByRole('radio', { name: paper.name, exact: true })).toBeChecked();
    await expect(reopened.getByText(PENDING_OFFLINE)).toBeVisible();

    // Nothing reached the server while offline (the API request context is not offline).
    const during = await residentOnServer(reopened, residentId!);
    expect(during.app_settings).toEqual(before.app_settings);
    expect(during.updated_at).toBe(before.updated_at);
    expect(sent).toEqual([]);
  } finally {
    await context.setOffline(false);
  }

  // Back online: the outbox (the service worker, or this page) sends it; the replica marks it synced.
  await reopened.reload();
  await expect(reopened.getByRole('form', { name: 'Journal look' }).getByRole('status')).toHaveText('Saved', { timeout: 45_000 });
  await expect(reopened.getByRole('radio', { name: colour.name, exact: true })).toBeChecked();

  const after = await residentOnServer(reopened, residentId!);
  expect(after.app_settings).toEqual({ ...before.app_settings, journal_colour: colour.value, journal_paper: paper.value });

  // Exactly once, observed: every attempt carried one Idempotency-Key; exactly one answer ran the
  // handler (not `Idempotent-Replayed`), and the row's updated_at is the one that run set (a second
  // run, replayed or not, would have moved it).
  await expect.poll(() => sent.filter((s) => s.status !== null && s.status >= 200 && s.status < 300).length).toBeGreaterThan(0);
  test.info().annotations.push({ type: 'app-settings requests', description: JSON.stringify(sent) });
  const keys = new Set(sent.map((s) => s.key));
  expect(keys.size, JSON.stringify(sent)).toBe(1);
  const [key] = [...keys];
  expect(key).toMatch(/^[0-9a-f-]{36}$/);
  const executed = sent.filter((s) => s.status !== null && s.status >= 200 && s.status < 300 && !s.replayed);
  expect(executed, JSON.stringify(sent)).toHaveLength(1);
  expect(executed[0]!.updatedAt).toBe(after.updated_at);
  expect(after.updated_at > before.updated_at).toBe(true);

  // A forced repeat of the very same request (a lost answer, a second replayer) is answered from
  // the idempotency store and changes nothing.
  const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN');
  expect(xsrf, 'XSRF-TOKEN cookie').toBeTruthy();
  const repeat = await reopened.request.fetch(`/api/v1/projects/residents/${residentId}/app-settings`, {
    method: executed[0]!.method,
    data: executed[0]!.body ?? undefined,
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'Idempotency-Key': key!,
      'X-XSRF-TOKEN': decodeURIComponent(xsrf!.value),
    },
  });
  expect(repeat.status(), await repeat.text()).toBe(200);
  expect(repeat.headers()['idempotent-replayed']).toBe('true');

  // Reloads start the outbox again: nothing is left to send, nothing is sent, nothing changes.
  const countBefore = sent.length;
  await reopened.reload();
  await expect(reopened.getByRole('form', { name: 'Journal look' }).getByRole('status')).toHaveText('Saved');
  await reopened.reload();
  await expect(reopened.getByRole('form', { name: 'Journal look' }).getByRole('status')).toHaveText('Saved');
  await reopened.waitForTimeout(1_500);
  expect(sent.slice(countBefore), 'no app-settings request after the write was synced').toEqual([]);
  const finally_ = await residentOnServer(reopened, residentId!);
  expect(finally_.updated_at).toBe(after.updated_at);
  expect(finally_.app_settings).toEqual(after.app_settings);
});
