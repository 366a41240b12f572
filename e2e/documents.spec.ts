import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { PNG } from 'pngjs';
import { WAIT_MS } from '../tests/support/timeouts';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';
import { ONE_VIEWPORT } from './support/tags';

/**
 * Documents end to end (issue 11), in Chromium against the real server. The desktop and phone
 * projects share one database: the demo's documents are only read; whatever a test changes on the
 * server (a form sent, a document withdrawn) is a document that test shared itself through the
 * staff API (carer.ali, as staff tools would).
 *
 * Reading and offline run inside the app's real CSP (no bypass) and fail on any CSP refusal: the
 * PDF viewer (pdf.js and its worker from this origin) and video from decrypted bytes (blob:).
 * The axe sweep injects axe as a script tag, so it bypasses the CSP (its own test).
 */

/** Waits that poll for a state: the one budget of tests/support/timeouts.ts (long ones are a few of it). */
const WAIT = { timeout: WAIT_MS };
const LONG = { timeout: 4 * WAIT_MS };

interface ServerDocument {
  id: string;
  title: string;
  form: { form_id: string; fields: { id: string; kind: string; related_form_ids?: string[] }[] } | null;
}
interface ServerSubmission {
  id: string;
  answers: Record<string, unknown>;
  files: { id: string; name: string; mime: string }[];
}

function smallPng(): Buffer {
  const png = new PNG({ width: 40, height: 30 });
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const i = (png.width * y + x) << 2;
      png.data[i] = (x * 6) & 255;
      png.data[i + 1] = 120;
      png.data[i + 2] = (y * 8) & 255;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

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

/** carer.ali, signed in through the real API in a context of its own. */
async function staff(baseURL: string) {
  const context: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  const xsrf = async () => decodeURIComponent((await context.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  expect((await context.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await context.post('/api/auth/login', {
    data: { username: 'carer.ali', password: DEMO_PASSWORD, client_site: DEMO_SITE },
    headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = async () => ({ 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' });
  return {
    async share(data: Record<string, unknown>): Promise<ServerDocument> {
      const response = await context.post('/api/v1/documents', { data, headers: await headers() });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { data: ServerDocument }).data;
    },
    async shareFile(fields: Record<string, string>, file: { name: string; mimeType: string; buffer: Buffer }): Promise<ServerDocument> {
      const response = await context.post('/api/v1/documents', { multipart: { ...fields, file }, headers: await headers() });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { data: ServerDocument }).data;
    },
    async withdraw(id: string) {
      const response = await context.delete(`/api/v1/documents/${id}`, { headers: await headers() });
      expect(response.ok(), await response.text()).toBe(true);
    },
    async submissions(id: string): Promise<ServerSubmission[]> {
      const response = await context.get(`/api/v1/documents/${id}/submissions?per_page=100`, { headers: { Accept: 'application/json' } });
      expect(response.ok(), await response.text()).toBe(true);
      return ((await response.json()) as { data: ServerSubmission[] }).data;
    },
    dispose: () => context.dispose(),
  };
}

/** Records every CSP refusal in the page (from the first script on, across navigations). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text());
  });
  await page.context().addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const list = ((window as unknown as { __csp?: string[] }).__csp ??= []);
      list.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return async () => [...refusals, ...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => [])) as string[])];
}

const item = (page: Page, title: string) => page.getByRole('article', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

async function openDocuments(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const link = nav.getByRole('link', { name: 'Documents' });
  if (await link.isVisible()) {
    await link.click();
  } else {
    await nav.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Documents' }).click();
  }
  await expect(page).toHaveTitle('Hearth - Documents');
}

test.describe('inside the real CSP', () => {
  test('jamie reads the book from its contents, goes offline, reloads and carries on where she stopped; the PDF and the gallery open offline from the device', async ({ page, context }) => {
    test.setTimeout(8 * 60_000);
    const cspRefusals = await watchCsp(page);
    await signInAsJamie(page);
    await waitForWorker(page);
    await openDocuments(page);

    // Kept by default (small): the book, the PDF, the gallery and the video are saved on the device.
    for (const title of ['Welcome to Willow House', 'House rules', 'Trip to the seaside', 'Waves at Whitby']) {
      await expect(item(page, title)).toContainText('✓ Saved on this device', LONG);
    }
    await expect(page.getByRole('heading', { level: 2, name: 'House information' })).toBeVisible();
    await expect(item(page, 'Welcome to Willow House')).toContainText('Updated');
    // The PDF viewer's code is kept by the worker too (it is not in the precache).
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('hearth-viewer-code')).keys()).map((r) => new URL(r.url).pathname.replace(/-[\w-]+\.mjs$/, '')).sort()), LONG)
      .toEqual(['/assets/pdf.min', '/assets/pdf.worker.min']);

    // The book, from its contents.
    await item(page, 'Welcome to Willow House').getByRole('link', { name: 'Welcome to Willow House' }).click();
    await expect(page).toHaveTitle('Hearth - Document');
    const contents = page.getByRole('navigation', { name: 'Contents' });
    await expect(contents.getByRole('link')).toHaveText(['Hello!', 'Your room', 'Meals', 'Who is who', 'Your voice matters']);
    await contents.getByRole('link', { name: 'Hello!' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hello!' })).toBeVisible();
    await expect(page).toHaveTitle('Hearth - Book page');
    await expect(page.getByRole('img', { name: /red-brick house/ })).toHaveJSProperty('complete', true);
    await page.getByRole('link', { name: /^Next/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your room' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('heading', { level: 1, name: 'Meals' })).toBeVisible();
    await expect(page.getByText('Page 3 of 5')).toBeVisible();

    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByText('You are currently offline')).toBeVisible(LONG);
      await expect(page.getByRole('heading', { level: 1, name: 'Meals' })).toBeVisible(WAIT);
      await page.getByRole('link', { name: 'Contents of Welcome to Willow House' }).click();
      await page.getByRole('link', { name: 'Continue reading: Meals' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Meals' })).toBeVisible();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('heading', { level: 1, name: 'Who is who' })).toBeVisible();
      const picture = page.getByRole('img', { name: /Four smiling people/ });
      await expect(picture).toBeVisible(WAIT);
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT).toBeGreaterThan(0);

      // The PDF, from its decrypted bytes, drawn by pdf.js with its text readable.
      await openDocuments(page);
      await item(page, 'House rules').getByRole('link', { name: 'House rules' }).click();
      const frame = page.getByRole('region', { name: /^House rules, page \d+ of 3/ });
      await expect(page.getByRole('region', { name: /^House rules, page 1 of 3/ })).toBeVisible(LONG);
      await expect(frame.getByTestId('pdf-text')).toContainText('Be kind to each other', LONG);
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect(frame.getByTestId('pdf-text')).toContainText('Meal times and quiet time', WAIT);
      await frame.focus();
      await page.keyboard.press('End');
      await expect(page.getByRole('group', { name: 'Pages and zoom' })).toContainText('Page 3 of 3');
      await expect(frame.getByTestId('pdf-text')).toContainText('Childline', WAIT);
      expect(await frame.locator('canvas').evaluate((canvas) => (canvas as HTMLCanvasElement).width)).toBeGreaterThan(100);

      // The gallery: pictures and the video from the device; full screen, arrows, Escape, focus back.
      await openDocuments(page);
      await item(page, 'Trip to the seaside').getByRole('link', { name: 'Trip to the seaside' }).click();
      const grid = page.getByRole('list', { name: 'Pictures and videos' });
      const first = grid.getByRole('button').first();
      await expect(first.locator('img')).toBeVisible(WAIT);
      await first.focus();
      await page.keyboard.press('Enter');
      const viewer = page.getByRole('dialog', { name: 'Picture 1 of 4' });
      await expect(viewer.getByRole('img', { name: 'The beach at Whitby on a sunny morning' })).toBeVisible();
      await expect(viewer.getByText('The beach at Whitby on a sunny morning')).toBeVisible();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const video = page.getByRole('dialog', { name: 'Video 3 of 4' }).locator('video');
      await expect(video).toHaveAttribute('src', /^blob:/);
      await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).readyState), WAIT).toBeGreaterThanOrEqual(1);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // The focus is back on the grid, on the one last shown.
      await expect(grid.getByRole('button').nth(2)).toBeFocused();

      // A document that is not kept says so plainly offline.
      await openDocuments(page);
      await item(page, 'Waves at Whitby').getByRole('switch', { name: 'Keep offline: Waves at Whitby' }).uncheck();
      await expect(item(page, 'Waves at Whitby')).toContainText('Not saved on this device', WAIT);
      await item(page, 'Waves at Whitby').getByRole('link', { name: 'Waves at Whitby' }).click();
      await expect(page.getByText("This document isn't saved on this device. Connect to the internet to open it, or turn on Keep offline next time.")).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
    // Back online it streams; kept again for next time.
    await expect(page.locator('video')).toHaveAttribute('src', /\/api\/v1\/documents\/.+\/blob$/, LONG);
    await openDocuments(page);
    await item(page, 'Waves at Whitby').getByRole('switch', { name: 'Keep offline: Waves at Whitby' }).check();
    await expect(item(page, 'Waves at Whitby')).toContainText('✓ Saved on this device', LONG);
    expect(await cspRefusals()).toEqual([]);
  });

  test('jamie fills a form offline with every field kind, closes and reopens the page, sends it; online it arrives once with every answer', async ({ page, context, baseURL }) => {
    test.setTimeout(8 * 60_000);
    const cspRefusals = await watchCsp(page);
    await signInAsJamie(page);
    await waitForWorker(page);
    const resident = await residentId(page);
    const forms = await json<{ data: { id: string; name: string }[] }>(page, '/api/v1/forms?per_page=500');
    const review = forms.data.find((f) => f.name === 'My views for my review meeting')!;
    const title = `My views ${Date.now()}`;
    const ali = await staff(baseURL!);
    let doc: ServerDocument;
    try {
      doc = await ali.share({ kind: 'form', title, resident_id: resident, form_id: review.id, category: 'End to end' });
    } finally {
      await ali.dispose();
    }
    const related = doc.form!.fields.find((f) => f.id === 'objectives')!.related_form_ids!;
    const relatedNames = forms.data.filter((f) => related.includes(f.id)).map((f) => f.name);

    await openDocuments(page);
    await expect(item(page, title)).toBeVisible(LONG);
    await item(page, title).getByRole('link', { name: title }).click();
    const form = page.getByRole('form', { name: title });
    await expect(form).toBeVisible(WAIT);

    await context.setOffline(true);
    let reopened: Page;
    try {
      await expect(page.getByText('You are offline. You can fill this in now')).toBeVisible(WAIT);
      await form.getByRole('textbox', { name: /What is going well for you/ }).fill('Football and my history project.');
      await form.getByRole('textbox', { name: /Is anything worrying you/ }).fill('Moving school next year');
      await form.getByRole('group', { name: /Are you happy living here/ }).getByRole('radio', { name: 'Yes' }).check();
      const slider = form.getByRole('slider', { name: /How happy do you feel/ });
      await slider.focus();
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowLeft');
      await form.getByRole('radio', { name: /^Green #/ }).check();
      await form.getByRole('button', { name: 'Add row' }).click();
      await form.getByRole('textbox', { name: 'Day, row 1' }).fill('Saturday');
      await form.getByRole('textbox', { name: 'Best bit, row 1' }).fill('Football');
      await form.getByRole('textbox', { name: 'Hardest bit, row 1' }).fill('Homework');
      await form.getByRole('group', { name: /What would you like to talk about/ }).getByRole('checkbox', { name: 'School' }).check();
      const objectives = form.getByRole('group', { name: /Objectives you want to mention/ });
      await objectives.getByRole('checkbox', { name: relatedNames[0]! }).check();
      await form.getByRole('group', { name: /A photo or picture/ }).locator('input[type=file]').setInputFiles({ name: 'proud.png', mimeType: 'image/png', buffer: smallPng() });
      await expect(form.getByRole('group', { name: /A photo or picture/ }).getByRole('img')).toBeVisible(WAIT);
      await form.getByRole('group', { name: /Anything else you want to share/ }).locator('input[type=file]').setInputFiles([
        { name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'medal.png', mimeType: 'image/png', buffer: smallPng() },
      ]);
      await expect(form.getByRole('group', { name: /Anything else you want to share/ })).toContainText('certificate.pdf', WAIT);
      await form.getByRole('checkbox', { name: /I would like to come to the meeting myself/ }).check();
      await form.getByRole('button', { name: 'Type your name instead' }).click();
      await form.getByRole('textbox', { name: 'Type your full name' }).fill('Jamie Smith');
      await page.keyboard.press('Enter');
      await expect(form.getByRole('img', { name: 'Your signature' })).toBeVisible(WAIT);
      await expect(page.getByText('Draft saved on this device.')).toBeVisible(WAIT);

      // Closed and opened again, still offline: everything is still there, kept encrypted on the device.
      const url = page.url();
      await page.close();
      reopened = await context.newPage();
      await reopened.goto(url);
      const again = reopened.getByRole('form', { name: title });
      await expect(again).toBeVisible(LONG);
      await expect(reopened.getByText('We kept what you started on this device.')).toBeVisible();
      await expect(again.getByRole('textbox', { name: /What is going well for you/ })).toHaveValue('Football and my history project.');
      await expect(again.getByRole('textbox', { name: 'Best bit, row 1' })).toHaveValue('Football');
      await expect(again.getByRole('img', { name: 'Your signature' })).toBeVisible(WAIT);
      await again.getByRole('button', { name: 'Send my answers' }).click();
      await expect(reopened.getByText('Your answers are waiting to be sent. They will be sent when you are back online.')).toBeVisible(WAIT);
    } finally {
      await context.setOffline(false);
    }

    // Online: sent once, every answer there; the page shows the read-only copy.
    await expect(reopened!.getByText(/You sent this on/)).toBeVisible(LONG);
    const ali2 = await staff(baseURL!);
    try {
      const submissions = await ali2.submissions(doc.id);
      expect(submissions).toHaveLength(1);
      const [sent] = submissions;
      expect(sent!.answers).toMatchObject({
        going_well: 'Football and my history project.',
        worries: 'Moving school next year',
        happy_here: 'yes',
        happiness: 9,
        mood_colour: expect.stringMatching(/^#[0-9a-f]{6}$/),
        week: [{ day: 'Saturday', best: 'Football', hardest: 'Homework' }],
        talk_about: ['school'],
        objectives: [forms.data.find((f) => f.name === relatedNames[0])!.id],
        attend: true,
      });
      const byName = new Map(sent!.files.map((f) => [f.name, f]));
      expect([...byName.keys()].sort()).toEqual(['certificate.pdf', 'medal.png', 'proud.png', 'signature.png']);
      expect(sent!.answers.photo).toEqual({ file_id: byName.get('proud.png')!.id });
      expect(sent!.answers.signature).toEqual({ file_id: byName.get('signature.png')!.id });
      expect(sent!.answers.extra_files).toEqual([{ file_id: byName.get('certificate.pdf')!.id }, { file_id: byName.get('medal.png')!.id }]);
    } finally {
      await ali2.dispose();
    }
    await expect(reopened!.getByText('Football and my history project.')).toBeVisible();
    expect(await cspRefusals()).toEqual([]);
  });

  test('staff withdraw a document and it disappears from the device', ONE_VIEWPORT, async ({ page, baseURL }) => {
    test.setTimeout(4 * 60_000);
    await signInAsJamie(page);
    const resident = await residentId(page);
    const title = `Trip letter ${Date.now()}`;
    const ali = await staff(baseURL!);
    try {
      const doc = await ali.shareFile({ kind: 'file', title, resident_id: resident, category: 'End to end' }, { name: 'letter.pdf', mimeType: 'application/pdf', buffer: PDF });
      await openDocuments(page);
      await expect(item(page, title)).toContainText('✓ Saved on this device', LONG);
      await expect(item(page, title)).toContainText('New');
      const before = await page.getByRole('region', { name: 'Space on this device' }).textContent();

      await ali.withdraw(doc.id);
      // Without a reload: the change stream brings the tombstone; the row and its kept bytes go.
      await expect(item(page, title)).toHaveCount(0, LONG);
      await expect(page.getByRole('region', { name: 'Space on this device' })).not.toHaveText(before ?? '', WAIT);
      await page.goto(`/documents/${doc.id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'We can’t find this document.' })).toBeVisible(WAIT);
    } finally {
      await ali.dispose();
    }
  });
});

test.describe('accessibility', () => {
  test.use({ bypassCSP: true }); // axe is injected as a script tag

  test('axe finds nothing on the documents list and every viewer', async ({ page }) => {
    test.setTimeout(6 * 60_000);
    await signInAsJamie(page);
    await openDocuments(page);
    await expect(item(page, 'House rules')).toContainText('✓ Saved on this device', LONG);
    await expectNoAxeViolations(page, 'documents list');
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('seaside');
    await expect(page.getByRole('article')).toHaveCount(1);
    await expectNoAxeViolations(page, 'documents list, searched');
    await page.getByRole('searchbox', { name: 'Search documents' }).fill('');

    await item(page, 'House rules').getByRole('link', { name: 'House rules' }).click();
    await expect(page.getByRole('region', { name: /^House rules, page 1 of 3/ }).getByTestId('pdf-text')).toContainText('Be kind', LONG);
    await expectNoAxeViolations(page, 'PDF viewer');

    await openDocuments(page);
    await item(page, 'Waves at Whitby').getByRole('link', { name: 'Waves at Whitby' }).click();
    await expect(page.locator('video')).toBeVisible(WAIT);
    await expectNoAxeViolations(page, 'video');

    await openDocuments(page);
    await item(page, 'Welcome to Willow House').getByRole('link', { name: 'Welcome to Willow House' }).click();
    await expect(page.getByRole('navigation', { name: 'Contents' })).toBeVisible();
    await expectNoAxeViolations(page, 'book contents');
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'Who is who' }).click();
    await expect(page.getByRole('img', { name: /Four smiling people/ })).toBeVisible(WAIT);
    await expectNoAxeViolations(page, 'book page');

    await openDocuments(page);
    await item(page, 'Trip to the seaside').getByRole('link', { name: 'Trip to the seaside' }).click();
    await expect(page.getByRole('list', { name: 'Pictures and videos' }).locator('img').first()).toBeVisible(WAIT);
    await expectNoAxeViolations(page, 'gallery');
    await page.getByRole('list', { name: 'Pictures and videos' }).getByRole('button').nth(1).click();
    await expect(page.getByRole('dialog', { name: 'Picture 2 of 4' }).locator('img')).toBeVisible(WAIT);
    await expectNoAxeViolations(page, 'gallery viewer');
    await page.keyboard.press('Escape');

    await openDocuments(page);
    await item(page, 'My views for my review meeting').getByRole('link', { name: 'My views for my review meeting' }).click();
    await expect(page.getByRole('form', { name: 'My views for my review meeting' }).or(page.getByText(/You sent this on/))).toBeVisible(WAIT);
    await expectNoAxeViolations(page, 'form document');
  });
});
