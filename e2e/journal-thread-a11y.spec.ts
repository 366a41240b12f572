import { request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { baseURL } from '../playwright.config';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { signInAsJamie } from './support/sign-in';
import { expectDetectorNoticesInjection, PAYLOAD, PAYLOADS, watchForXss, type XssWatch } from './support/xss';
import { axeViolations, type AxeViolation } from './support/axe';
import { waitForWorker } from './support/worker';
import { ONE_VIEWPORT } from './support/tags';

/**
 * The journal conversation end to end against the real server (a carer's comment arrives in an open
 * thread, jamie answers with words and a reaction, the server holds the answer once), every text a
 * young person can write (and a carer's comment) shown back as text and never as HTML, on the
 * lists, threads and edit screens (e2e/support/xss.ts), and axe-core on the journal, thread,
 * dashboard and calendar screens.
 */

const JOURNAL_API = '/api/v1/projects/residents/journal/entries';
const VOICE_API = '/api/v1/projects/residents/voices/entries';
/** Seeded by server/seed/demo-entries.ts: jamie's entry shared with Ali. */
const SEEDED_SHARED_ENTRY = 'Ali, can we talk about the football trials tomorrow?';

interface Row {
  id: string;
  description?: string | null;
  comment?: string | null;
  reaction?: string | null;
}

async function serverRows(page: Page, path: string): Promise<Row[]> {
  const response = await page.request.get(path, { headers: { Accept: 'application/json' } });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: Row[] }).data;
}

/** The id of jamie's entry with exactly this text, once the outbox has sent it. */
async function entryIdOnServer(page: Page, api: string, description: string): Promise<string> {
  let id = '';
  await expect
    .poll(async () => {
      id = (await serverRows(page, `${api}?per_page=50`)).find((r) => r.description === description)?.id ?? '';
      return id;
    }, { timeout: 45_000 })
    .not.toBe('');
  return id;
}

/** carer.ali signed in through the real API (CSRF cookie, then login), as staff tools would. */
async function signInCarer(): Promise<{ comment(api: string, entryId: string, text: string): Promise<void>; dispose(): Promise<void> }> {
  const carer: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  const token = async () => {
    const state = await carer.storageState();
    return decodeURIComponent(state.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  };
  expect((await carer.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await carer.post('/api/auth/login', {
    headers: { 'X-XSRF-TOKEN': await token() },
    data: { username: 'carer.ali', password: DEMO_PASSWORD, client_site: DEMO_SITE },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return {
    async comment(api, entryId, text) {
      const posted = await carer.post(`${api}/comments`, { headers: { 'X-XSRF-TOKEN': await token() }, data: { entry_id: entryId, comment: text } });
      expect(posted.ok(), await posted.text()).toBe(true);
    },
    dispose: () => carer.dispose(),
  };
}

/** Writes a journal entry shared with Ali through the form, as jamie does; lands on /journal/entries. */
async function writeJournalEntrySharedWithAli(page: Page, text: string): Promise<void> {
  await page.goto('/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Write in your journal' })).toBeVisible();
  await page.getByRole('textbox', { name: /on your mind/ }).fill(text);
  await page.getByRole('checkbox', { name: /Ali Hassan/ }).check({ timeout: 20_000 });
  await expect(page.getByText('You and Ali Hassan will see this entry.')).toBeVisible();
  await page.getByRole('button', { name: 'Save entry' }).click();
  await expect(page).toHaveURL(/\/journal\/entries$/, { timeout: 30_000 });
}

async function reply(page: Page, text: string, withReaction: boolean): Promise<string | null> {
  const form = page.getByRole('form', { name: 'Reply' });
  await form.getByLabel('Your message').fill(text);
  let emoji: string | null = null;
  if (withReaction) {
    const reaction = form.getByRole('radiogroup', { name: 'How do you feel?' }).getByRole('radio', { name: 'Thumbs up', exact: true });
    await expect(reaction).toBeVisible({ timeout: 20_000 });
    await reaction.click();
    await expect(reaction).toHaveAttribute('aria-checked', 'true');
    emoji = (await reaction.textContent())?.trim() ?? null;
  }
  await form.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Your reply has been sent.')).toBeVisible();
  return emoji;
}

test('journal thread: a carer’s comment arrives without a reload and jamie’s reply reaches the server once', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const text = `Can we plan the trip to the zoo? (${stamp})`;
  const carerText = `Yes, let’s talk at tea time (${stamp})`;
  const replyText = `Great, see you then (${stamp})`;

  await signInAsJamie(page);
  await writeJournalEntrySharedWithAli(page, text);
  const entryId = await entryIdOnServer(page, JOURNAL_API, text);
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card.getByRole('link', { name: '0 comments' })).toBeVisible({ timeout: 30_000 });
  await card.getByRole('link', { name: '0 comments' }).click();
  await expect(page).toHaveURL(new RegExp(`/entries/comments/${entryId}$`));
  await expect(page.getByText(text)).toBeVisible();
  const comments = page.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText('No comments yet. Staff replies will show here.')).toBeVisible();

  // Mark the document: if the page reloads, the mark is gone.
  await page.evaluate(() => ((window as unknown as { __noReload?: boolean }).__noReload = true));
  const carer = await signInCarer();
  try {
    await carer.comment(JOURNAL_API, entryId, carerText);
  } finally {
    await carer.dispose();
  }
  await expect(comments.getByText(carerText)).toBeVisible({ timeout: 30_000 });
  await expect(comments.getByRole('article', { name: /Comment from Ali/ })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

  const emoji = await reply(page, replyText, true);
  expect(emoji).toBeTruthy();
  const mine = comments.getByRole('article', { name: 'Comment from You' }).filter({ hasText: replyText });
  await expect(mine).toBeVisible();
  await expect(mine.getByRole('img', { name: /^Reaction: / })).toHaveText(emoji!);

  const path = `${JOURNAL_API}/${entryId}/comments`;
  await expect.poll(async () => (await serverRows(page, path)).filter((r) => r.comment === replyText).length, { timeout: 30_000 }).toBe(1);
  await expect(mine.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
  // Still exactly once after the outbox has settled.
  await page.waitForTimeout(2_000);
  const rows = await serverRows(page, path);
  const replies = rows.filter((r) => r.comment === replyText);
  expect(replies).toHaveLength(1);
  expect(replies[0]!.reaction).toBe(emoji);
  expect(rows.filter((r) => r.comment === carerText)).toHaveLength(1);
});

test('a thread opened while its entry waits offline gets staff comments once the entry is sent', ONE_VIEWPORT, async ({ page, context }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const text = `Written on the coach with no signal (${stamp})`;
  const carerText = `Glad the trip went well (${stamp})`;

  await signInAsJamie(page);
  await waitForWorker(page);
  // The home's staff are on the device before the signal goes.
  await page.goto('/journal');
  await expect(page.getByRole('checkbox', { name: /Ali Hassan/ })).toBeVisible({ timeout: 20_000 });
  await context.setOffline(true);
  let localId = '';
  try {
    await writeJournalEntrySharedWithAli(page, text);
    const card = page.getByRole('article').filter({ hasText: text });
    await expect(card.getByText('Waiting to send')).toBeVisible();
    // Not sent: no comments link on the card yet; the thread's address is the device's id for it.
    const edit = await card.getByRole('link', { name: /Edit/ }).getAttribute('href');
    localId = /\/journal\/edit\/([0-9a-f-]{36})$/.exec(edit ?? '')?.[1] ?? '';
    expect(localId, edit ?? '').not.toBe('');
    await page.goto(`/entries/comments/${localId}`);
    await expect(page.getByText(text)).toBeVisible();
    await expect(page.getByText('You can reply once your entry has been sent.')).toBeVisible();
  } finally {
    await context.setOffline(false);
  }

  // Online again, no reload: the entry is sent, then the thread is pulled like any other.
  const entryId = await entryIdOnServer(page, JOURNAL_API, text);
  await expect(page.getByRole('form', { name: 'Reply' })).toBeVisible({ timeout: 45_000 });
  const carer = await signInCarer();
  try {
    await carer.comment(JOURNAL_API, entryId, carerText);
  } finally {
    await carer.dispose();
  }
  const comments = page.getByRole('region', { name: 'Comments' });
  await expect(comments.getByText(carerText)).toBeVisible({ timeout: 30_000 });
  // One entry, under the id the device gave it: the server kept it, so the open thread is the entry's.
  expect(entryId).toBe(localId);
});

test('a carer’s reply to an entry jamie has not opened since can be read offline', ONE_VIEWPORT, async ({ page, context }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const text = `Can I have friends round on Saturday? (${stamp})`;
  const carerText = `Yes, ask at the house meeting (${stamp})`;

  await signInAsJamie(page);
  await waitForWorker(page);
  await writeJournalEntrySharedWithAli(page, text);
  const entryId = await entryIdOnServer(page, JOURNAL_API, text);
  const card = page.getByRole('article').filter({ hasText: text });
  await expect(card.getByRole('link', { name: '0 comments' })).toBeVisible({ timeout: 30_000 });

  // The reply comes while jamie is on the list: the thread is pulled ahead, never opened.
  const threadPulled = page.waitForResponse((r) => r.url().includes(`/journal/entries/${entryId}/comments`) && r.ok(), { timeout: 60_000 });
  const carer = await signInCarer();
  try {
    await carer.comment(JOURNAL_API, entryId, carerText);
  } finally {
    await carer.dispose();
  }
  await expect(card.getByRole('link', { name: '1 comment' })).toBeVisible({ timeout: 30_000 });
  await threadPulled;

  // No signal now: the reply is read from the device.
  await context.setOffline(true);
  try {
    await expect(page.getByText('You are currently offline')).toBeVisible({ timeout: 20_000 });
    await card.getByRole('link', { name: '1 comment' }).click();
    await expect(page).toHaveURL(new RegExp(`/entries/comments/${entryId}$`));
    const comments = page.getByRole('region', { name: 'Comments' });
    await expect(comments.getByRole('article', { name: /Comment from Ali/ }).filter({ hasText: carerText })).toBeVisible({ timeout: 30_000 });
  } finally {
    await context.setOffline(false);
  }
});

test('xss sweep: what people write is shown as text, never run as HTML', ONE_VIEWPORT, async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const text = (field: string, payload: string = PAYLOAD) => `${payload} (${field} ${stamp})`;
  const watch = watchForXss(page);
  const { expectInert } = watch;
  await signInAsJamie(page);
  // The detector is able to fail: markup really injected into this page is noticed.
  await expectDetectorNoticesInjection(page, watch);
  const carer = await signInCarer();
  try {
    // Journal description: the list, then the thread.
    const journalText = text('journal');
    await writeJournalEntrySharedWithAli(page, journalText);
    await expectInert('/journal/entries', [journalText]);
    const journalId = await entryIdOnServer(page, JOURNAL_API, journalText);
    await page.goto(`/entries/comments/${journalId}`);
    await expectInert('journal thread', [journalText]);

    // A carer's comment, then jamie's reply, in the journal thread.
    const carerJournal = text('carer journal comment', PAYLOADS.attribute);
    await carer.comment(JOURNAL_API, journalId, carerJournal);
    const journalReply = text('journal reply', PAYLOADS.textarea);
    await expect(page.getByText(carerJournal, { exact: true })).toBeVisible({ timeout: 30_000 });
    await reply(page, journalReply, false);
    await expectInert('journal thread with comments', [journalText, carerJournal, journalReply]);
    await expect
      .poll(async () => (await serverRows(page, `${JOURNAL_API}/${journalId}/comments`)).filter((r) => r.comment === journalReply).length, { timeout: 30_000 })
      .toBe(1);
    await page.reload();
    await expectInert('journal thread after a reload', [journalText, carerJournal, journalReply]);
    await page.goto('/journal/entries');
    await expectInert('/journal/entries again', [journalText]);

    // Voice description ("Share good news"): the list, then the thread.
    const voiceText = text('voice', PAYLOADS.frames);
    await page.goto('/voice');
    await page.getByRole('button', { name: /Share good news/ }).click();
    await page.getByLabel('What would you like to say?').fill(voiceText);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page).toHaveURL(/\/voice\/success$/);
    await expectInert('/voice/success', []);
    const voiceId = await entryIdOnServer(page, VOICE_API, voiceText);
    await page.goto('/voice/entries');
    await expectInert('/voice/entries', [voiceText]);
    await page.locator(`a[href="/voice/comments/${voiceId}"]`).click({ timeout: 30_000 });
    await expect(page).toHaveURL(new RegExp(`/voice/comments/${voiceId}$`));
    await expectInert('voice thread', [voiceText]);

    const carerVoice = text('carer voice comment', PAYLOADS.attribute);
    await carer.comment(VOICE_API, voiceId, carerVoice);
    await expect(page.getByText(carerVoice, { exact: true })).toBeVisible({ timeout: 30_000 });
    const voiceReply = text('voice reply', PAYLOADS.textarea);
    await reply(page, voiceReply, false);
    await expectInert('voice thread with comments', [voiceText, carerVoice, voiceReply]);
    await expect
      .poll(async () => (await serverRows(page, `${VOICE_API}/${voiceId}/comments`)).filter((r) => r.comment === voiceReply).length, { timeout: 30_000 })
      .toBe(1);
    await page.reload();
    await expectInert('voice thread after a reload', [voiceText, carerVoice, voiceReply]);

    // The dashboard lists new replies: nothing there runs either.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
    await expectInert('/dashboard', []);
  } finally {
    await carer.dispose();
  }
});

/** The server's copy of one row, by id (undefined until it is there). */
async function serverRow(page: Page, path: string, id: string): Promise<Row | undefined> {
  return (await serverRows(page, path)).find((r) => r.id === id);
}

/**
 * In an open thread: jamie's own reply with `before` is opened for editing (the form is filled in
 * with it, as text), `after` is typed over it and saved; the server ends up with `after` in the same
 * comment. Checks the thread for injection at each step.
 */
async function editOwnReply(page: Page, watch: XssWatch, where: string, commentsPath: string, before: string, after: string): Promise<void> {
  let replyId = '';
  await expect
    .poll(async () => {
      replyId = (await serverRows(page, commentsPath)).find((r) => r.comment === before)?.id ?? '';
      return replyId;
    }, { timeout: 30_000 })
    .not.toBe('');
  const comments = page.getByRole('region', { name: 'Comments' });
  const mine = comments.getByRole('article', { name: 'Comment from You' }).filter({ hasText: before });
  await expect(mine.getByText('Waiting to send')).toHaveCount(0, { timeout: 30_000 });
  await mine.getByRole('button', { name: 'Edit your reply' }).click();

  const form = page.getByRole('form', { name: 'Edit your reply' });
  const field = form.getByLabel('Your message');
  await watch.expectFieldHolds(`${where}: edit reply, stored text`, field, before);
  await field.fill(after);
  await watch.expectFieldHolds(`${where}: edit reply, typed text`, field, after);
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Your reply has been updated.')).toBeVisible();
  await expect(form).toHaveCount(0);
  await watch.expectInert(`${where}: the edited reply`, [after]);
  await expect(comments.getByText(before, { exact: true })).toHaveCount(0);

  await expect.poll(async () => (await serverRow(page, commentsPath, replyId))?.comment, { timeout: 30_000 }).toBe(after);
  expect((await serverRows(page, commentsPath)).filter((r) => r.comment === before)).toEqual([]);
  await page.reload();
  await watch.expectInert(`${where}: the edited reply after a reload`, [after]);
}

test('xss sweep: the edit screens show stored markup as text in their fields and save new markup as text', ONE_VIEWPORT, async ({ page }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const text = (field: string, payload: string) => `${payload} (${field} ${stamp})`;
  const watch = watchForXss(page);
  const { expectInert, expectFieldHolds } = watch;
  await signInAsJamie(page);
  await expectDetectorNoticesInjection(page, watch);

  // /journal/edit/{id}: an entry whose stored words are markup that tries to close the textarea.
  const journalText = text('journal', PAYLOADS.textarea);
  await writeJournalEntrySharedWithAli(page, journalText);
  await expectInert('/journal/entries', [journalText]);
  const journalId = await entryIdOnServer(page, JOURNAL_API, journalText);
  // The card's Edit link once it points at the server's copy (the sent entry takes the server's id).
  await page.getByRole('article').filter({ hasText: journalText }).locator(`a[href="/journal/edit/${journalId}"]`).click({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`/journal/edit/${journalId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit journal entry' })).toBeVisible();
  const journalField = page.getByRole('textbox', { name: /on your mind/ });
  await expectFieldHolds('/journal/edit: stored text', journalField, journalText);
  await expectInert('/journal/edit');

  // Typed key by key over the old words: attribute-breaking markup.
  const journalEdited = text('journal edited', PAYLOADS.attribute);
  await journalField.fill('');
  await journalField.pressSequentially(journalEdited);
  await expectFieldHolds('/journal/edit: typed text', journalField, journalEdited);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(/\/journal\/entries$/, { timeout: 30_000 });
  await expectInert('/journal/entries after the edit', [journalEdited]);
  await expect(page.getByText(journalText, { exact: true })).toHaveCount(0);
  await expect.poll(async () => (await serverRow(page, `${JOURNAL_API}?per_page=50`, journalId))?.description, { timeout: 30_000 }).toBe(journalEdited);

  // The edit screen again, now filled in with the edited words; then the thread shows them.
  await page.goto(`/journal/edit/${journalId}`);
  await expectFieldHolds('/journal/edit again', journalField, journalEdited);
  await page.goto(`/entries/comments/${journalId}`);
  await expectInert('journal thread after the edit', [journalEdited]);

  // Editing a reply in the journal thread.
  const journalReply = text('journal reply', PAYLOADS.tags);
  await reply(page, journalReply, false);
  await expectInert('journal thread with a reply', [journalReply]);
  await editOwnReply(page, watch, 'journal thread', `${JOURNAL_API}/${journalId}/comments`, journalReply, text('journal reply edited', PAYLOADS.frames));

  // /voice/edit/{id}: a Voice message whose stored words are markup.
  const voiceText = text('voice', PAYLOADS.frames);
  await page.goto('/voice');
  await page.getByRole('button', { name: /Share good news/ }).click();
  await page.getByLabel('What would you like to say?').fill(voiceText);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page).toHaveURL(/\/voice\/success$/);
  const voiceId = await entryIdOnServer(page, VOICE_API, voiceText);
  await page.goto('/voice/entries');
  await expectInert('/voice/entries', [voiceText]);
  await page.locator(`a[href="/voice/edit/${voiceId}"]`).click({ timeout: 30_000 });
  await expect(page).toHaveURL(new RegExp(`/voice/edit/${voiceId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Edit voice entry' })).toBeVisible();
  const voiceField = page.getByLabel('What would you like to say?');
  await expectFieldHolds('/voice/edit: stored text', voiceField, voiceText);
  await expectInert('/voice/edit');

  const voiceEdited = text('voice edited', PAYLOADS.textarea);
  await voiceField.fill(voiceEdited);
  await expectFieldHolds('/voice/edit: typed text', voiceField, voiceEdited);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(/\/voice\/entries$/, { timeout: 30_000 });
  await expectInert('/voice/entries after the edit', [voiceEdited]);
  await expect(page.getByText(voiceText, { exact: true })).toHaveCount(0);
  await expect.poll(async () => (await serverRow(page, `${VOICE_API}?per_page=50`, voiceId))?.description, { timeout: 30_000 }).toBe(voiceEdited);

  await page.goto(`/voice/edit/${voiceId}`);
  await expectFieldHolds('/voice/edit again', voiceField, voiceEdited);
  await page.goto(`/voice/comments/${voiceId}`);
  await expectInert('voice thread after the edit', [voiceEdited]);

  // Editing a reply in the Voice thread.
  const voiceReply = text('voice reply', PAYLOADS.attribute);
  await reply(page, voiceReply, false);
  await expectInert('voice thread with a reply', [voiceReply]);
  await editOwnReply(page, watch, 'voice thread', `${VOICE_API}/${voiceId}/comments`, voiceReply, text('voice reply edited', PAYLOADS.tags));

  // The lists and the dashboard, where the edited words (and replies) are listed.
  await page.goto('/journal/entries');
  await expectInert('/journal/entries at the end', [journalEdited]);
  await page.goto('/voice/entries');
  await expectInert('/voice/entries at the end', [voiceEdited]);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
  await expectInert('/dashboard at the end');
});

test.describe('axe', () => {
  // axe-core is injected as a script tag: let it past the app's CSP (script-src 'self') here only.
  test.use({ bypassCSP: true });

  test('journal, thread, dashboard and calendar screens have no axe violations', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAsJamie(page);
    const entryId = await entryIdOnServer(page, JOURNAL_API, SEEDED_SHARED_ENTRY);

    const screens: { path: string; ready(): Promise<void> }[] = [
      {
        path: '/journal',
        ready: async () => {
          await expect(page.getByRole('heading', { level: 1, name: 'Write in your journal' })).toBeVisible();
          await expect(page.getByRole('checkbox', { name: /Ali Hassan/ })).toBeVisible({ timeout: 20_000 });
        },
      },
      {
        path: '/journal/entries',
        ready: async () => {
          await expect(page.getByRole('article').filter({ hasText: SEEDED_SHARED_ENTRY })).toBeVisible({ timeout: 20_000 });
        },
      },
      {
        path: '/journal/customise',
        ready: async () => {
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        },
      },
      {
        path: `/entries/comments/${entryId}`,
        ready: async () => {
          await expect(page.getByText(SEEDED_SHARED_ENTRY)).toBeVisible({ timeout: 20_000 });
          await expect(page.getByRole('form', { name: 'Reply' })).toBeVisible();
        },
      },
      {
        path: '/dashboard',
        ready: async () => {
          await expect(page.getByRole('heading', { level: 1 })).toContainText('Jamie');
          await expect(page.getByRole('list', { name: 'New replies' }).getByRole('listitem').first()).toBeVisible({ timeout: 20_000 });
        },
      },
      {
        path: '/calendar',
        ready: async () => {
          await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
          await expect(page.locator('main ul.day__entries > li').first()).toBeVisible({ timeout: 20_000 });
        },
      },
    ];

    const found: Record<string, AxeViolation[]> = {};
    for (const screen of screens) {
      await page.goto(screen.path);
      await screen.ready();
      // Let loading states and transitions settle so axe sees the finished screen.
      await expect(page.locator('.loading-text')).toHaveCount(0, { timeout: 20_000 });
      const violations = await axeViolations(page);
      if (violations.length > 0) found[screen.path] = violations;
    }
    expect(found, `axe violations:\n${JSON.stringify(found, null, 2)}`).toEqual({});
  });
});
