import { request as playwrightRequest, type Page } from '@playwright/test';
// The shared `test`: a failure carries what the service worker did (./support/worker-log.ts).
import { expect, test } from './support/offline';
import { baseURL } from '../playwright.config';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';

/**
 * SPEC §3 account themes (docs/decisions.md "Themes (issue 11)"): jamie switches her kids_app style to
 * gaming_style in Menu → Look; every main screen is then the dark look and passes axe (colour
 * contrast included), on a desktop and a phone; switching back restores the fun look, on the server
 * too. Her account's style is put back to fun_style through the API in `finally`, whatever happened,
 * so specs that run after this one on the same database see the seeded look.
 */

test.use({ bypassCSP: true }); // axe is injected as a script tag
test.setTimeout(240_000);

interface Screen {
  path: string;
  heading: RegExp;
  /** Something that is only there once the page has its data. */
  ready?: (page: Page) => Promise<void>;
}

const screens: Screen[] = [
  { path: '/dashboard', heading: /^Hi Jamie$/ },
  { path: '/journal', heading: /^Write in your journal$/ },
  { path: '/journal/entries', heading: /^Journal entries$/, ready: (page) => expect(page.getByRole('list', { name: 'Journal entries' }).getByRole('listitem').first()).toBeVisible() },
  { path: '/journal/customise', heading: /^Customise journal$/, ready: (page) => expect(page.getByRole('form', { name: 'Journal look' })).toBeVisible() },
  { path: '/voice', heading: /^Your voice$/, ready: (page) => expect(page.locator('.voice-choice').first()).toBeVisible() },
  { path: '/voice/entries', heading: /^My messages$/ },
  { path: '/objectives', heading: /^Objectives$/, ready: (page) => expect(page.getByRole('tablist')).toBeVisible() },
  { path: '/calendar', heading: /^Calendar$/ },
  { path: '/feedback', heading: /Feedback|replies/i },
  { path: '/rewards', heading: /Rewards/ },
  { path: '/documents', heading: /Documents/ },
  { path: '/terms-and-conditions', heading: /^Terms and conditions$/ },
  { path: '/privacy-policy', heading: /^Privacy policy$/ },
];

const html = (page: Page) => page.locator('html');
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** themes.css: gaming --bg #0b0e1a; fun --bg #fff8ef. */
const GAMING_BG = 'rgb(11, 14, 26)';
const FUN_BG = 'rgb(255, 248, 239)';
/** The browser's bars take the header colour of the look showing (themes.css --header-bg). */
const themeColour = (page: Page) => page.locator('meta[name="theme-color"]');
const GAMING_HEADER = '#05070f';
const FUN_HEADER = '#3b2a6b';

async function settled(page: Page, screen: Screen): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading, { timeout: 30_000 });
  await screen.ready?.(page);
  await expect(page.locator('.loading-text, .page-loading')).toHaveCount(0, { timeout: 30_000 });
}

async function openLook(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  return { menu, style: menu.getByRole('group', { name: 'Style' }) };
}

async function chooseStyle(page: Page, name: 'Fun' | 'Gaming'): Promise<void> {
  const { menu, style } = await openLook(page);
  const radio = style.getByRole('radio', { name: new RegExp(`^${name}`) });
  await expect(radio).toBeEnabled({ timeout: 30_000 }); // the resident record has synced
  await radio.check();
  await expect(radio).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
}

/** jamie's kids_app theme as the server has it (her own session: page.request shares the cookies). */
async function serverStyle(page: Page): Promise<string | undefined> {
  const response = await page.request.get('/api/v1/auth/user', { headers: { Accept: 'application/json' } });
  expect(response.ok()).toBe(true);
  const account = (await response.json()) as { user: { themes: { system_name: string; theme_type: { system_name: string } }[] } };
  return account.user.themes.find((t) => t.theme_type.system_name === 'kids_app')?.system_name;
}

/** Puts jamie's account back to fun_style through the API, in a context of its own. */
async function restoreFunStyle(): Promise<void> {
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const xsrf = async () => decodeURIComponent((await api.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
    expect((await api.get('/api/auth/csrf-cookie')).ok()).toBe(true);
    const login = await api.post('/api/auth/login', {
      data: { username: 'jamie', password: DEMO_PASSWORD, client_site: DEMO_SITE },
      headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
    });
    expect(login.ok(), await login.text()).toBe(true);
    const account = (await (await api.get('/api/v1/auth/user', { headers: { Accept: 'application/json' } })).json()) as { user: { resident: { id: string } } };
    const put = await api.put(`/api/v1/projects/residents/${account.user.resident.id}/app-settings`, {
      data: { kids_style: 'fun_style' },
      headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
    });
    expect(put.ok(), await put.text()).toBe(true);
  } finally {
    await api.dispose();
  }
}

test('jamie: gaming_style on every main screen passes axe; switching back restores the fun look', async ({ page }) => {
  try {
    await signInAsJamie(page);
    await expect(html(page)).toHaveAttribute('data-kids-style', 'fun');
    expect(await bodyBackground(page)).toBe(FUN_BG);

    await chooseStyle(page, 'Gaming');
    await expect(html(page)).toHaveAttribute('data-kids-style', 'gaming');
    expect(await bodyBackground(page)).toBe(GAMING_BG);
    await expect(themeColour(page)).toHaveAttribute('content', GAMING_HEADER);
    // Saved to her account through the outbox.
    await expect.poll(() => serverStyle(page), { timeout: 45_000 }).toBe('gaming_style');

    for (const screen of screens) {
      await page.goto(screen.path);
      await settled(page, screen);
      // Each page load starts in the gaming look (remembered on the device) and stays in it.
      await expect(html(page)).toHaveAttribute('data-kids-style', 'gaming');
      expect(await bodyBackground(page), screen.path).toBe(GAMING_BG);
      await expectNoAxeViolations(page, `${screen.path} in gaming_style`);
    }

    // The type is the display face; a focus ring shows in the gaming focus colour.
    await page.goto('/dashboard');
    await settled(page, screens[0]!);
    expect(await page.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).fontFamily)).toContain('Bahnschrift');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    expect(await skip.evaluate((el) => { const s = getComputedStyle(el); return `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`; })).toBe('solid 3px rgb(255, 92, 219)');

    // The Menu with the Look picker, open, in the gaming look.
    const { menu } = await openLook(page);
    await expect(menu.getByRole('radio', { name: /^Gaming/ })).toBeChecked();
    await expectNoAxeViolations(page, 'the Menu in gaming_style');
    await page.keyboard.press('Escape');

    // Back to fun: at once, on the server, and after a reload.
    await chooseStyle(page, 'Fun');
    await expect(html(page)).toHaveAttribute('data-kids-style', 'fun');
    expect(await bodyBackground(page)).toBe(FUN_BG);
    await expect.poll(() => serverStyle(page), { timeout: 45_000 }).toBe('fun_style');
    await expect(themeColour(page)).toHaveAttribute('content', FUN_HEADER);
    await page.reload();
    await settled(page, screens[0]!);
    await expect(html(page)).toHaveAttribute('data-kids-style', 'fun');
    expect(await bodyBackground(page)).toBe(FUN_BG);
    await expect(themeColour(page)).toHaveAttribute('content', FUN_HEADER);
  } finally {
    await restoreFunStyle();
  }
});
