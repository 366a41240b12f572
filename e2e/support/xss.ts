import { expect, type Locator, type Page } from '@playwright/test';
import { PAYLOADS } from './xss-payloads';

export { PAYLOAD, PAYLOADS } from './xss-payloads';

/**
 * XSS payloads and a detector for the sweeps (e2e/journal-thread-a11y.spec.ts).
 *
 * Every element a payload would inject carries `data-xss`, and every handler or script in it sets
 * `window.__xss` (and some call alert()). The app's CSP (script-src 'self', no inline) would refuse
 * to run an injected handler, so "nothing ran" alone proves little: the detector also looks for the
 * injected elements themselves and for the CSP refusals a blocked handler or script leaves behind.
 * The payloads stay short (under 150 characters) so a list excerpt (200 characters) shows them whole.
 */

/** What the page holds now that a payload could have made: empty when all is well. Runs in the page. */
function scanPage(): string[] {
  const found: string[] = [];
  const marker = (window as unknown as { __xss?: unknown }).__xss;
  if (marker !== undefined) found.push(`window.__xss = ${String(marker)}`);
  for (const element of Array.from(document.querySelectorAll('*'))) {
    const tag = element.tagName.toLowerCase();
    if (element.hasAttribute('data-xss')) found.push(`injected <${tag} data-xss>`);
    // React never renders inline handlers as attributes: any on* attribute came from markup.
    for (const name of element.getAttributeNames()) if (name.toLowerCase().startsWith('on')) found.push(`<${tag} ${name}="${element.getAttribute(name)}">`);
    // The shell's own first-paint script (index.html's head, allowed by its CSP hash) is the one
    // inline script the app has; anything else inline, or anywhere else, is a finding.
    const shellScript = element.id === 'first-paint' && element.parentElement === document.head;
    if (tag === 'script' && !element.hasAttribute('src') && !shellScript) found.push('an inline <script>');
    if (tag === 'img' && element.getAttribute('src') === 'x') found.push('<img src=x>');
    if (tag === 'iframe' || tag === 'object' || tag === 'embed') found.push(`<${tag}>`);
    if ((element.getAttribute('href') ?? '').trim().toLowerCase().startsWith('javascript:')) found.push(`<${tag} href=javascript:>`);
  }
  return found;
}

export interface XssWatch {
  /** Everything seen so far: injected elements and markers on the page now, dialogs and CSP refusals since the start. */
  findings(): Promise<string[]>;
  /** Nothing ran or was injected, and each text is on screen as text. */
  expectInert(where: string, shown?: readonly string[]): Promise<void>;
  /** A form field shows the stored text as its value (text, not markup), and nothing was injected. */
  expectFieldHolds(where: string, field: Locator, value: string): Promise<void>;
  /** Forgets the dialogs and CSP refusals seen so far (for the positive control). */
  reset(): void;
}

/**
 * Watches one page from now on (across navigations): dialogs, the CSP refusals Chromium logs when
 * markup tries to run inline script, and errors thrown in the page.
 */
export function watchForXss(page: Page): XssWatch {
  const events: string[] = [];
  page.on('dialog', (dialog) => {
    events.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('console', (message) => {
    if (/Content Security Policy|inline event handler|inline script/i.test(message.text())) events.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    if (/__xss/.test(String(error))) events.push(`page error: ${String(error)}`);
  });

  const findings = async () => [...events, ...(await page.evaluate(scanPage))];
  return {
    findings,
    async expectInert(where, shown = []) {
      for (const value of shown) await expect(page.getByText(value, { exact: true }).first(), `${where}: "${value}" shown as text`).toBeVisible({ timeout: 30_000 });
      expect(await findings(), `${where}: nothing injected, nothing ran`).toEqual([]);
    },
    async expectFieldHolds(where, field, value) {
      await expect(field, `${where}: the field holds the stored text`).toHaveValue(value, { timeout: 30_000 });
      expect(await findings(), `${where}: nothing injected, nothing ran`).toEqual([]);
    },
    reset() {
      events.length = 0;
    },
  };
}

/**
 * The positive control: the same markup put into the page as HTML (what a bug would do) is seen by
 * the detector, both as elements and as the CSP refusal of its handler. Leaves the page as it was.
 */
export async function expectDetectorNoticesInjection(page: Page, watch: XssWatch): Promise<void> {
  expect(await watch.findings(), 'clean before the control').toEqual([]);
  await page.evaluate((html) => {
    const box = document.createElement('div');
    box.id = 'xss-control';
    box.innerHTML = html;
    document.body.append(box);
  }, Object.values(PAYLOADS).join(''));
  await expect
    .poll(() => watch.findings(), { message: 'the detector sees markup injected as HTML' })
    .toEqual(
      expect.arrayContaining([
        'injected <img data-xss>',
        expect.stringMatching(/^<img onerror="window.__xss=1/),
        '<img src=x>',
        'injected <script data-xss>',
        'an inline <script>',
        'injected <svg data-xss>',
        expect.stringMatching(/^<svg onload=/),
        '<iframe>',
        '<a href=javascript:>',
      ]),
    );
  // Every refusal the control causes is in before the watch forgets them: an image's error handler
  // runs only once its request for `x` has failed, which on a busy machine came after the first
  // refusal (an svg's, at once) and then showed up as a finding of the next screen. An image is
  // `complete` in the task that fires its error, so its refusal is logged by then.
  await expect
    .poll(
      async () => {
        const images = await page.evaluate(() => {
          const found = Array.from(document.querySelectorAll<HTMLImageElement>('#xss-control img'));
          return found.every((image) => image.complete) ? found.filter((image) => image.hasAttribute('onerror')).length : null;
        });
        const refusals = (await watch.findings()).filter((f) => f.startsWith('console')).length;
        return images !== null && refusals >= Math.max(1, images);
      },
      { message: 'the CSP refusals of the injected handlers are seen, the images\' too' },
    )
    .toBe(true);
  await page.evaluate(() => document.getElementById('xss-control')?.remove());
  watch.reset();
  expect(await watch.findings(), 'clean again after the control').toEqual([]);
}
