import { expect, request as playwrightRequest, test } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { signInAsJamie, signOut, submitLogin } from './support/sign-in';
import { freshTotpCode } from './support/totp';

/** The authenticator key jamie binds in the test: kept so a failed attempt can be undone. */
let boundKey: string | null = null;

/**
 * A failed attempt must not leave jamie with two-factor on (the retry, and every later project,
 * sign her in with a password alone): turn it off as she would, through the API, with a code.
 */
test.afterEach(async ({ baseURL }, testInfo) => {
  const key = boundKey;
  boundKey = null;
  if (!key || testInfo.status === testInfo.expectedStatus) return;
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const xsrf = async () => decodeURIComponent((await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
    const send = async (method: 'POST' | 'DELETE', path: string, data: unknown) =>
      api.fetch(path, { method, data, headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' } });
    await api.get('/api/auth/csrf-cookie');
    const login = await send('POST', '/api/auth/login', { username: 'jamie', password: DEMO_PASSWORD, client_site: DEMO_SITE });
    const body = (await login.json().catch(() => ({}))) as { data?: { mfa_required?: boolean; two_factor_id?: string } };
    if (!login.ok() || !body.data?.mfa_required) return; // two-factor is off already
    const verified = await send('POST', '/api/auth/mfa/login', { two_factor_id: body.data.two_factor_id, method: 'authenticator', code: await freshTotpCode(key) });
    expect(verified.ok(), await verified.text()).toBe(true);
    const removed = await send('DELETE', '/api/v1/auth/mfa/methods/authenticator', { current: DEMO_PASSWORD });
    expect(removed.ok(), await removed.text()).toBe(true);
  } finally {
    await api.dispose();
  }
});

test('jamie turns on authenticator two-factor, saves recovery codes, signs in again through verify, makes new codes and turns it off', async ({ page }) => {
  await signInAsJamie(page);
  await page.getByRole('main').getByRole('link', { name: 'Set up two-factor sign-in' }).click();
  await expect(page).toHaveURL(/\/auth\/mfa\/configure$/);
  await page.getByRole('link', { name: /authenticator app/i }).click();
  await expect(page).toHaveURL(/\/auth\/mfa\/configure\/authenticator$/);
  // Step-up: signed in already, so the password again first; a wrong one is refused beside the field.
  const password = page.getByLabel('Your password');
  await password.fill('not-my-password');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Your current password is not right')).toBeVisible();
  await password.fill('hearth-demo-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: /QR code/i })).toBeVisible();

  // The key a person would type into their app when they cannot scan the picture.
  const key = (await page.locator('.secret-key code').innerText()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  boundKey = key;
  await page.getByLabel('Verification code').fill(await freshTotpCode(key));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Download codes' })).toBeVisible();
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOut(page);
  await submitLogin(page, 'jamie');
  await expect(page).toHaveURL(/\/auth\/mfa\/verify$/);
  await page.getByLabel('Verification code').fill(await freshTotpCode(key));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).toHaveTitle('Hearth - Dashboard');

  // Issue 12: she sees her two-factor sign-in, makes new recovery codes and turns the app off, each after her password.
  await page.goto('/auth/mfa/configure');
  // The account on the device is as old as the sign-in; the page shows what the server says now.
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor sign-in', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Make new recovery codes' }).click();
  await page.getByLabel('Your password').fill('hearth-demo-1');
  await page.getByRole('button', { name: 'Make new codes' }).click();
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await expect(page.getByText('New recovery codes made. The old ones no longer work.')).toBeVisible();

  const ways = page.getByRole('region', { name: 'Your ways to get codes' });
  await ways.getByRole('button', { name: 'Turn off Authenticator app' }).click();
  await ways.getByLabel('Your password').fill('hearth-demo-1');
  await ways.getByRole('button', { name: 'Turn off Authenticator app' }).click();
  await expect(page.getByText('Authenticator app turned off.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in' })).toBeVisible();
  boundKey = null;

  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);
  await submitLogin(page, 'jamie');
  await expect(page).toHaveURL(/\/dashboard$/);
});
