import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { signInAsJamie } from './support/sign-in';
import { expectNoAxeViolations } from './support/axe';

/**
 * Voice end to end against the real server: jamie raises a concern, sees what happens next, finds
 * it under its category, reads a carer's comment made on the server, and replies. Each Voice screen
 * is checked with axe-core.
 */

// axe-core is injected as a script tag: let it past the app's CSP (script-src 'self') in this test only.
test.use({ bypassCSP: true });

const VOICE_API = '/api/v1/projects/residents/voices/entries';

interface Row {
  id: string;
  comment?: string | null;
  description?: string | null;
}

/** A carer signed in through the real API (CSRF cookie, then login), as staff tools would. */
async function carerComment(entryId: string, comment: string): Promise<void> {
  const carer = await playwrightRequest.newContext({ baseURL });
  const token = async () => {
    const state = await carer.storageState();
    return decodeURIComponent(state.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  };
  try {
    expect((await carer.get('/api/auth/csrf-cookie')).ok()).toBe(true);
    const login = await carer.post('/api/auth/login', {
      headers: { 'X-XSRF-TOKEN': await token() },
      data: { username: 'carer.ali', password: DEMO_PASSWORD, client_site: DEMO_SITE },
    });
    expect(login.ok(), await login.text()).toBe(true);
    const posted = await carer.post(`${VOICE_API}/comments`, {
      headers: { 'X-XSRF-TOKEN': await token() },
      data: { entry_id: entryId, comment },
    });
    expect(posted.ok(), await posted.text()).toBe(true);
  } finally {
    await carer.dispose();
  }
}

async function serverRows(page: Page, path: string): Promise<Row[]> {
  const response = await page.request.get(path);
  if (!response.ok()) return [];
  return ((await response.json()) as { data: Row[] }).data;
}

test('jamie raises a concern, reads a carer’s comment and replies', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const concern = `The window in my room will not close (${stamp})`;
  const carerText = `Thanks for telling us, we will fix it today (${stamp})`;
  const reply = `Thank you Ali (${stamp})`;

  await signInAsJamie(page);
  await page.goto('/voice');
  await expect(page.getByRole('heading', { level: 1, name: 'Your voice' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Raise a concern/ })).toBeVisible();
  await expectNoAxeViolations(page, '/voice');

  await page.getByRole('button', { name: /Raise a concern/ }).click();
  await page.getByLabel('What would you like to say?').fill(concern);
  await expect(page.getByText('Who can see this?')).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(page).toHaveURL(/\/voice\/success$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for speaking up' })).toBeVisible();
  await expect(page.getByText(/call Childline on 0800 1111/)).toBeVisible();
  await expectNoAxeViolations(page, '/voice/success');

  // The concern reaches the server (the outbox sends it) under its category.
  let entryId = '';
  await expect
    .poll(async () => {
      const rows = await serverRows(page, `${VOICE_API}?search_term=${encodeURIComponent(stamp)}`);
      entryId = rows.find((r) => r.description === concern)?.id ?? '';
      return entryId;
    }, { timeout: 30_000 })
    .not.toBe('');

  await page.getByRole('link', { name: 'My messages' }).click();
  await expect(page).toHaveURL(/\/voice\/entries$/);
  const group = page.getByRole('region', { name: 'Raise a concern' });
  await expect(group.getByText(concern)).toBeVisible();
  await expect(group.locator(`a[href="/voice/comments/${entryId}"]`)).toBeVisible({ timeout: 30_000 });
  await expectNoAxeViolations(page, '/voice/entries');

  await group.locator(`a[href="/voice/comments/${entryId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/voice/comments/${entryId}$`));
  await expect(page.getByText(concern)).toBeVisible();

  // A carer comments on the server; the open thread shows it.
  await carerComment(entryId, carerText);
  const comments = page.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText(carerText)).toBeVisible({ timeout: 30_000 });
  await expect(comments.getByRole('article', { name: /Comment from Ali/ })).toBeVisible();
  await expectNoAxeViolations(page, '/voice/comments/:id');

  const form = page.getByRole('form', { name: 'Reply' });
  await form.getByLabel('Your message').fill(reply);
  await form.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Your reply has been sent.')).toBeVisible();
  await expect(comments.getByText(reply)).toBeVisible();

  await expect
    .poll(async () => (await serverRows(page, `${VOICE_API}/${entryId}/comments`)).map((r) => r.comment), { timeout: 30_000 })
    .toEqual(expect.arrayContaining([carerText, reply]));
  await expect(comments.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
});
