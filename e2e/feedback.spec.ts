import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';
import { staffApi } from './support/staff';
import { waitForWorker } from './support/worker';

/**
 * The feedback page (issue 10) against the real server and jamie's seeded threads: the same items and
 * counts as the dashboard and the menu, live when staff reply (through the staff API, no reload), an
 * answered reply leaves it, offline it shows the replica's copy; axe on it (desktop and phone projects).
 */
test.use({ bypassCSP: true }); // axe is injected as a script tag

const group = (page: Page, type: 'Journal' | 'Voice') => page.getByRole('region', { name: new RegExp(`^${type} \\d+ waiting$`) });
const countIn = async (heading: Locator) => Number((await heading.textContent())?.match(/(\d+)/)?.[1] ?? NaN);
const hrefs = async (links: Locator) => Promise.all((await links.all()).map((a) => a.getAttribute('href')));

/** The menu's Feedback link (the Main bar's Menu button on both layouts). */
async function openFeedbackFromMenu(page: Page): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' }).click();
  return page.getByRole('dialog', { name: 'Menu' }).getByRole('navigation', { name: 'More' }).getByRole('link', { name: /^Feedback/ });
}

async function badgeCounts(page: Page): Promise<{ journal: number; voice: number }> {
  const badges = page.getByRole('region', { name: 'New replies' }).getByRole('list', { name: 'Replies waiting' }).getByRole('listitem');
  await expect(badges).toHaveCount(2);
  const [journal, voice] = await badges.allTextContents();
  return { journal: Number(journal!.replace(/\D/g, '')), voice: Number(voice!.replace(/\D/g, '')) };
}

test('the feedback page matches the dashboard, updates live when staff reply, loses a reply once answered, works offline; axe finds nothing', async ({ page, context, baseURL }) => {
  test.setTimeout(150_000);
  await signInAsJamie(page);
  const replies = page.getByRole('list', { name: 'New replies' });
  await expect(replies.getByRole('listitem').first()).toBeVisible();
  const counts = await badgeCounts(page);
  expect(counts.journal + counts.voice).toBeGreaterThan(0);
  const dashboardLinks = await hrefs(replies.getByRole('link', { name: /^Read and reply/ }));

  // The menu says how many, and leads to the page.
  const link = await openFeedbackFromMenu(page);
  await expect(link).toHaveText(`Feedback${counts.journal + counts.voice} new ${counts.journal + counts.voice === 1 ? 'reply' : 'replies'}`);
  await link.click();
  await expect(page).toHaveURL(/\/feedback$/);
  await expect(page).toHaveTitle('Hearth - Feedback');

  // Same counts as the badges; every item the dashboard shows is here, and each group holds its count.
  await expect(page.getByRole('heading', { level: 2, name: `Journal ${counts.journal} waiting` })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: `Voice ${counts.voice} waiting` })).toBeVisible();
  const journalItems = group(page, 'Journal').getByRole('listitem');
  await expect(journalItems).toHaveCount(counts.journal);
  await expect(group(page, 'Voice').getByRole('listitem')).toHaveCount(counts.voice);
  const pageLinks = await hrefs(page.getByRole('main').getByRole('link', { name: /^Read and reply/ }));
  expect(pageLinks).toHaveLength(counts.journal + counts.voice);
  expect(pageLinks).toEqual(expect.arrayContaining(dashboardLinks));
  expect((await hrefs(group(page, 'Journal').getByRole('link', { name: /^Read and reply/ }))).every((h) => /^\/entries\/comments\/[0-9a-f-]{36}$/.test(h ?? ''))).toBe(true);
  expect((await hrefs(group(page, 'Voice').getByRole('link', { name: /^Read and reply/ }))).every((h) => /^\/voice\/comments\/[0-9a-f-]{36}$/.test(h ?? ''))).toBe(true);
  await expectNoAxeViolations(page, '/feedback');

  // Staff reply on one of jamie's journal entries: it arrives at the top of Journal, without a reload.
  // (An open conversation: a closed one is not on the page, whatever staff write in it.)
  const list = await page.request.get('/api/v1/projects/residents/feedback?filters[0][0]=type&filters[0][1]==&filters[0][2]=journal&filters[1][0]=locked_at&filters[1][1]=null', {
    headers: { Accept: 'application/json' },
  });
  const entryId = ((await list.json()) as { data: { entry_id: string }[] }).data.at(-1)?.entry_id;
  expect(entryId, 'jamie has an open journal thread').toBeTruthy();
  const comment = `Feedback e2e: that sounds like a great day (${Date.now().toString(36)})`;
  await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
  const ali = await staffApi(baseURL!);
  try {
    await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: entryId, comment });
  } finally {
    await ali.dispose();
  }
  const newest = journalItems.first();
  await expect(newest).toContainText(comment, { timeout: 20_000 });
  await expect(newest).toContainText('Ali Hassan');
  await expect(newest.getByRole('link', { name: 'Read and reply to Ali Hassan' })).toHaveAttribute('href', `/entries/comments/${entryId}`);
  const journalNow = await countIn(page.getByRole('heading', { level: 2, name: /^Journal \d+ waiting$/ }));
  await expect(journalItems).toHaveCount(journalNow);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expectNoAxeViolations(page, '/feedback after a staff reply');

  // Jamie answers in the thread; back on the page, the reply has left and the counts moved.
  await newest.getByRole('link', { name: 'Read and reply to Ali Hassan' }).click();
  await expect(page).toHaveURL(`/entries/comments/${entryId}`);
  const form = page.getByRole('form', { name: 'Reply' });
  await form.getByLabel('Your message').fill('Thanks Ali!');
  await form.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Your reply has been sent.')).toBeVisible();
  await (await openFeedbackFromMenu(page)).click();
  await expect(page.getByRole('heading', { level: 2, name: `Journal ${journalNow - 1} waiting` })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('main')).not.toContainText(comment);
  await expect(journalItems).toHaveCount(journalNow - 1);
  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Replies waiting' }).getByRole('listitem').first()).toHaveText(`Journal ${journalNow - 1}`);

  // Offline: the replica's copy.
  await waitForWorker(page);
  await context.setOffline(true);
  try {
    await page.goto('/feedback');
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `Journal ${journalNow - 1} waiting` })).toBeVisible();
    await expect(journalItems).toHaveCount(journalNow - 1);
    await expectNoAxeViolations(page, '/feedback offline');
  } finally {
    await context.setOffline(false);
  }
});
