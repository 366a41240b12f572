import { request as playwrightRequest, type APIRequestContext, type APIResponse, type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/offline';
import { baseURL } from '../playwright.config';
import { entryMessages } from '../src/contract/entries';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * Jamie's journal list, a closed conversation and Voice's default sharing, end to end against the
 * real server:
 * - the list's filters (From/To, Feeling, Who can see it) narrow "Journal entries" to exactly the
 *   entries they should, newest first, together with the search box; "Clear filters" brings the
 *   list back; an empty result says so; the same works offline from the device alone; all of it
 *   with the keyboard only, and axe finds nothing on the filtered and the empty list;
 * - the demo's closed conversation (Beth's comment about the TV rota) is marked "Closed" with no
 *   edit link in the list, its thread shows the comment and the closed note instead of the reply
 *   form, and /journal/edit/{id} shows the same note instead of the form (the server refuses too);
 * - Voice starts shared with the key worker (Ali Hassan) and home management, says so before
 *   sending, and the server lets exactly them read it; with both unticked no staff can.
 *
 * Not covered: a lock arriving while an edit waits in the outbox. Staff have no way to close a
 * conversation through the server (locked_at is only ever written by the demo seed), and the test
 * server's embedded database belongs to its own process, so there is no legitimate way to lock an
 * entry during a test.
 */

// In the home's language and time zone.
test.use({ locale: 'en-GB', timezoneId: 'Europe/London' });

const JOURNAL_API = '/api/v1/projects/residents/journal/entries';
const VOICE_API = '/api/v1/projects/residents/voices/entries';
/** server/seed/demo-entries.ts: jamie's closed conversation (😤, a comment from Beth, locked). */
const CLOSED_ENTRY = 'Had a row with Sam about the TV remote. Still annoyed.';
/** server/seed/demo-entries.ts: an open entry (⚽, shared with Ali), the only one with that reaction. */
const FOOTBALL_ENTRY = 'Scored a goal at football today! Coach said my passing is getting better.';
/** server/seed/demo-entries.ts: the newest open demo entry. */
const TIRED_ENTRY = 'Tired today. Stayed up too late watching videos.';
const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// The server's API, as jamie (the page's cookies) and as staff (their own sign-in)

interface JournalRow {
  id: string;
  description: string | null;
  reaction: string | null;
  entry_date: string;
  entry_time: string;
  shared_with: string[];
  shared_with_management: boolean;
  locked_at: string | null;
}

interface VoiceRow {
  id: string;
  description: string | null;
  shared_with: string[];
  shared_with_management: boolean;
}

async function xsrfToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN');
  expect(cookie, 'the anti-forgery cookie after sign-in').toBeTruthy();
  return decodeURIComponent(cookie!.value);
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { Accept: 'application/json' } });
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function jamiesJournal(page: Page): Promise<JournalRow[]> {
  return (await getJson<{ data: JournalRow[] }>(page, `${JOURNAL_API}?per_page=500`)).data;
}

async function aliId(page: Page): Promise<string> {
  const account = await getJson<{ user?: { resident?: { id: string } }; data?: { user?: { resident?: { id: string } } } }>(page, '/api/v1/auth/user');
  const residentId = (account.user ?? account.data?.user)?.resident?.id;
  expect(residentId, "jamie's resident id").toBeTruthy();
  const staff = await getJson<{ data: { id: string; first_name: string; last_name: string }[] }>(page, `/api/v1/projects/residents/${residentId}/associated-users`);
  const ali = staff.data.find((p) => p.first_name === 'Ali' && p.last_name === 'Hassan');
  expect(ali, 'Ali Hassan is on the staff of jamie’s home').toBeTruthy();
  return ali!.id;
}

/** A write as jamie through the API (what the app's outbox sends). */
async function postAsJamie(page: Page, path: string, data: Record<string, unknown>): Promise<APIResponse> {
  return page.request.post(path, { headers: { Accept: 'application/json', 'X-XSRF-TOKEN': await xsrfToken(page) }, data });
}

/** A member of staff signed in through the real API (CSRF cookie, then login), as staff tools would. */
async function signInStaff(username: string): Promise<{ get(path: string): Promise<APIResponse>; dispose(): Promise<void> }> {
  const staff: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  const token = async () => decodeURIComponent((await staff.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  expect((await staff.get('/api/auth/csrf-cookie')).ok()).toBe(true);
  const login = await staff.post('/api/auth/login', {
    headers: { 'X-XSRF-TOKEN': await token() },
    data: { username, password: DEMO_PASSWORD, client_site: DEMO_SITE },
  });
  expect(login.ok(), `${username}: ${await login.text()}`).toBe(true);
  return { get: (path) => staff.get(path, { headers: { Accept: 'application/json' } }), dispose: () => staff.dispose() };
}

/** The status each member of staff gets for GET `path` (signed in one after the other). */
async function staffStatuses(usernames: readonly string[], path: string): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (const username of usernames) {
    const staff = await signInStaff(username);
    try {
      statuses[username] = (await staff.get(path)).status();
    } finally {
      await staff.dispose();
    }
  }
  return statuses;
}

// ---------------------------------------------------------------------------------------------
// Entries on known past dates with known reactions

const addDays = (iso: string, days: number): string => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Days before the first entry that stay empty (the empty date range of the checks). */
const EMPTY_DAYS_BEFORE = 3;

/**
 * A first day for this test's entries: a random day between 1995 and 2019 with none of jamie's
 * entries from EMPTY_DAYS_BEFORE days before to a week after it (the demo's and other tests'
 * entries are recent, or on days chosen this way), so a date range over it holds this test's
 * entries and nothing else.
 */
async function freeWindow(page: Page): Promise<string> {
  const taken = new Set((await jamiesJournal(page)).map((r) => r.entry_date));
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = addDays('1995-01-01', Math.floor(Math.random() * 9000));
    if (Array.from({ length: EMPTY_DAYS_BEFORE + 8 }, (_, i) => addDays(base, i - EMPTY_DAYS_BEFORE)).every((d) => !taken.has(d))) return base;
  }
  throw new Error('no free week of dates for the test entries');
}

type Sharing = 'private' | 'ali' | 'management';

interface Planned {
  text: string;
  date: string;
  time: string;
  reaction: string | null;
  sharing: Sharing;
}

/**
 * Six entries over six days (the first day `base`), newest first:
 *   base+5 08:00 😢 Sad, shared with Ali ("park")
 *   base+3 12:15 🤩 Excited, only me
 *   base+2 14:00 no reaction, only me
 *   base+1 18:30 😢 Sad, shared with home management
 *   base+1 09:00 🤩 Excited, shared with Ali
 *   base   10:00 😢 Sad, only me ("park")
 */
function plan(stamp: string, base: string) {
  const entry = (text: string, days: number, time: string, reaction: string | null, sharing: Sharing): Planned => ({
    text: `${text} (${stamp})`,
    date: addDays(base, days),
    time,
    reaction,
    sharing,
  });
  return {
    parkTrip: entry('Missed the park trip because of the rain', 5, '08:00', '😢', 'ali'),
    cake: entry('Baked a lemon cake for Riley', 3, '12:15', '🤩', 'private'),
    quietDay: entry('Quiet day, read my book all afternoon', 2, '14:00', null, 'private'),
    busPass: entry('Lost my bus pass on the way home', 1, '18:30', '😢', 'management'),
    schoolPlay: entry('Got picked for the school play', 1, '09:00', '🤩', 'ali'),
    rainyPark: entry('Rainy walk to the park, soaked through', 0, '10:00', '😢', 'private'),
  };
}
type Plan = ReturnType<typeof plan>;

async function createThroughApi(page: Page, entry: Planned, ali: string): Promise<void> {
  const response = await postAsJamie(page, JOURNAL_API, {
    description: entry.text,
    ...(entry.reaction ? { reaction: entry.reaction } : {}),
    entry_date: entry.date,
    entry_time: entry.time,
    shared_with: entry.sharing === 'ali' ? [ali] : [],
    shared_with_management: entry.sharing === 'management' ? '1' : '0',
  });
  expect(response.ok(), `create "${entry.text}": ${await response.text()}`).toBe(true);
}

/** Through the journal form, as jamie writes it: words, the Excited reaction, a past date and time, private. */
async function writeThroughForm(page: Page, entry: Planned): Promise<void> {
  await page.goto('/journal');
  await expect(page.getByRole('heading', { level: 1, name: 'Write in your journal' })).toBeVisible();
  await page.getByRole('textbox', { name: /on your mind/ }).fill(entry.text);
  const excited = page.getByRole('radiogroup', { name: 'How are you feeling?' }).getByRole('radio', { name: 'Excited', exact: true });
  await excited.click({ timeout: 20_000 });
  await expect(excited).toHaveAttribute('aria-checked', 'true');
  await page.getByLabel('Date', { exact: true }).fill(entry.date);
  await page.getByLabel('Time', { exact: true }).fill(entry.time);
  await expect(page.getByText('Only you will see this entry.')).toBeVisible();
  await page.getByRole('button', { name: 'Save entry' }).click();
  await expect(page).toHaveURL(/\/journal\/entries$/, { timeout: 30_000 });
}

/** The six entries: through the API, except `cake`, written through the form when `cakeThroughForm`. */
async function createPlanned(page: Page, entries: Plan, options: { cakeThroughForm: boolean }): Promise<void> {
  const ali = await aliId(page);
  for (const entry of Object.values(entries)) {
    if (entry === entries.cake && options.cakeThroughForm) continue;
    await createThroughApi(page, entry, ali);
  }
  if (options.cakeThroughForm) await writeThroughForm(page, entries.cake);
}

const texts = (...entries: Planned[]): string[] => entries.map((e) => e.text);

// ---------------------------------------------------------------------------------------------
// The list and its filters

function listScreen(page: Page) {
  const filters = page.getByRole('group', { name: 'Filter your entries' });
  return {
    search: page.getByRole('searchbox', { name: 'Search your entries' }),
    from: filters.getByLabel('From', { exact: true }),
    to: filters.getByLabel('To', { exact: true }),
    feeling: filters.getByLabel('Feeling', { exact: true }),
    sharing: filters.getByLabel('Who can see it', { exact: true }),
    clear: page.getByRole('button', { name: 'Clear filters' }),
    noMatch: page.getByRole('status').filter({ hasText: /^No entries match/ }),
    cards: page.getByRole('list', { name: 'Journal entries' }).getByRole('article'),
  };
}

/**
 * Types a date into the focused date field (its first part focused), as a person does: digits for
 * each part in the order the field shows them. That order is the browser's (dd/mm/yyyy in a UK
 * Chrome, mm/dd/yyyy in a US one), so it is found first by typing 01, 02, 2000; then Shift+Tab
 * twice goes back to the first part and the date is typed over it.
 */
async function typeDate(page: Page, field: Locator, iso: string): Promise<void> {
  await page.keyboard.type('01022000');
  const probe = await field.inputValue();
  expect(['2000-01-02', '2000-02-01'], 'the probe date').toContain(probe);
  const dayFirst = probe === '2000-02-01';
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(field).toBeFocused();
  const [year, month, day] = iso.split('-') as [string, string, string];
  await page.keyboard.type(dayFirst ? `${day}${month}${year}` : `${month}${day}${year}`);
  await expect(field).toHaveValue(iso);
}

/**
 * Tab out of a date field to the next control. In Chromium a Tab from the last part (the year)
 * stops once more inside the field before leaving it, so it may take more than one Tab: each
 * stays in the field or reaches `next`, never anything else.
 */
async function tabFromDateField(page: Page, field: Locator, next: Locator): Promise<void> {
  for (let presses = 1; presses <= 3; presses += 1) {
    await page.keyboard.press('Tab');
    if (await next.evaluate((element) => element === document.activeElement)) return;
    expect(await field.evaluate((element) => element === document.activeElement), `Tab ${presses} from the date field stays in it or reaches the next control`).toBe(true);
  }
  await expect(next).toBeFocused();
}

/** The words of every card in the list, top to bottom (none when there is no list). */
async function listed(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Journal entries' }).locator('article .journal-card__text').allTextContents();
}

async function expectListed(page: Page, expected: string[], why: string): Promise<void> {
  await expect.poll(() => listed(page), { message: why, timeout: 20_000 }).toEqual(expected);
  if (expected.length > 0) await expect(listScreen(page).noMatch, `${why}: no "no match" note beside results`).toHaveCount(0);
}

async function expectNoMatch(page: Page, message: string, why: string): Promise<void> {
  await expect(listScreen(page).noMatch, why).toHaveText(message);
  expect(await listed(page), `${why}: no cards`).toEqual([]);
}

async function openList(page: Page): Promise<void> {
  await page.goto('/journal/entries');
  await expect(page.getByRole('heading', { level: 1, name: 'Journal entries' })).toBeVisible();
  await expect(listScreen(page).cards.first()).toBeVisible({ timeout: 20_000 });
}

/**
 * Waits until the device holds all of this test's entries (searching for the stamp lists exactly
 * them, newest first), then empties the search box and returns the unfiltered list as it then is.
 */
async function unfilteredListOnceSynced(page: Page, stamp: string, entries: Plan): Promise<string[]> {
  const screen = listScreen(page);
  const all = texts(entries.parkTrip, entries.cake, entries.quietDay, entries.busPass, entries.schoolPlay, entries.rainyPark);
  await screen.search.fill(stamp);
  await expect.poll(() => listed(page), { message: 'the search for the stamp lists the six entries, newest first', timeout: 45_000 }).toEqual(all);
  await screen.search.fill('');
  await expect.poll(() => listed(page), { message: 'an empty search lists everything again' }).not.toEqual(all);
  await expect(screen.clear).toHaveCount(0);
  // The list as it settles: the same twice in a row, 400 ms apart.
  let unfiltered: string[] = [];
  await expect
    .poll(async () => {
      const before = await listed(page);
      await page.waitForTimeout(400);
      unfiltered = await listed(page);
      return JSON.stringify(before) === JSON.stringify(unfiltered);
    }, { message: 'the unfiltered list settles' })
    .toBe(true);
  // At least the six demo entries, the newest of them first among them, and more than any filter shows.
  expect(unfiltered.length, JSON.stringify(unfiltered)).toBeGreaterThan(all.length);
  return unfiltered;
}

async function expectControlsCleared(page: Page): Promise<void> {
  const screen = listScreen(page);
  await expect(screen.search).toHaveValue('');
  await expect(screen.from).toHaveValue('');
  await expect(screen.to).toHaveValue('');
  await expect(screen.feeling).toHaveValue('');
  await expect(screen.sharing).toHaveValue('');
  await expect(screen.clear).toHaveCount(0);
}

/**
 * Every filter over the six entries (the date range first, then feeling, sharing, search), the
 * demo entries' reactions, the empty results, then "Clear filters". Used online and offline.
 */
async function exerciseFilters(page: Page, stamp: string, entries: Plan, unfiltered: string[]): Promise<void> {
  const screen = listScreen(page);
  const { parkTrip, cake, quietDay, busPass, schoolPlay, rainyPark } = entries;
  const base = rainyPark.date;

  // Date range: inclusive at both ends, on the entry's own date, newest first.
  await screen.from.fill(base);
  await screen.to.fill(addDays(base, 5));
  await expectListed(page, texts(parkTrip, cake, quietDay, busPass, schoolPlay, rainyPark), 'From first day To sixth day: the six, newest first');
  await expect(screen.cards.first().getByRole('heading')).toHaveText(new Date(`${parkTrip.date}T08:00`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }) + ' at 08:00');
  await screen.from.fill(addDays(base, 1));
  await screen.to.fill(addDays(base, 3));
  await expectListed(page, texts(cake, quietDay, busPass, schoolPlay), 'From the second To the fourth day');
  await screen.from.fill(base);
  await screen.to.fill(base);
  await expectListed(page, texts(rainyPark), 'From and To the same day: that day only');
  await screen.to.fill(addDays(base, 5));
  await screen.from.fill(addDays(base, 4));
  await expectListed(page, texts(parkTrip), 'the fifth and sixth days');
  await screen.from.fill(addDays(base, -EMPTY_DAYS_BEFORE));
  await screen.to.fill(addDays(base, -1));
  await expectNoMatch(page, 'No entries match these filters.', 'a range with nothing in it');

  // Feeling, within the six days.
  await screen.from.fill(base);
  await screen.to.fill(addDays(base, 5));
  await screen.feeling.selectOption({ label: '😢 Sad' });
  await expectListed(page, texts(parkTrip, busPass, rainyPark), 'Feeling: Sad');
  await screen.feeling.selectOption({ label: '🤩 Excited' });
  await expectListed(page, texts(cake, schoolPlay), 'Feeling: Excited');

  // Who can see it, with and without a feeling.
  await screen.sharing.selectOption({ label: 'Only me' });
  await expectListed(page, texts(cake), 'Excited, only me');
  await screen.sharing.selectOption({ label: 'Shared with someone' });
  await expectListed(page, texts(schoolPlay), 'Excited, shared');
  await screen.feeling.selectOption({ label: '😢 Sad' });
  await expectListed(page, texts(parkTrip, busPass), 'Sad, shared (with Ali; with home management)');
  await screen.feeling.selectOption({ label: 'Any feeling' });
  await expectListed(page, texts(parkTrip, busPass, schoolPlay), 'any feeling, shared');
  await screen.sharing.selectOption({ label: 'Only me' });
  await expectListed(page, texts(cake, quietDay, rainyPark), 'any feeling, only me (one without a reaction)');

  // Search together with the filters.
  await screen.search.fill('park');
  await expectListed(page, texts(rainyPark), '"park", only me, in the six days');
  await screen.sharing.selectOption({ label: 'All entries' });
  await expectListed(page, texts(parkTrip, rainyPark), '"park" in the six days');
  await screen.feeling.selectOption({ label: '😢 Sad' });
  await screen.sharing.selectOption({ label: 'Shared with someone' });
  await expectListed(page, texts(parkTrip), '"park", Sad, shared');
  await screen.search.fill(`zebra${stamp}`);
  await expectNoMatch(page, `No entries match “zebra${stamp}” with these filters.`, 'a search and filters with no result');
  await screen.search.fill(`lemon cake ${stamp}`);
  await screen.feeling.selectOption({ label: 'Any feeling' });
  await screen.sharing.selectOption({ label: 'All entries' });
  await expectListed(page, texts(cake), 'a search in the six days');

  // The demo entries (recent), by the reactions only they have: no date range. Other specs write
  // journal entries for jamie on the same server, so they choose other reactions by name.
  await screen.search.fill('');
  await screen.from.fill('');
  await screen.to.fill('');
  await screen.feeling.selectOption({ label: '😤 Frustrated' });
  await expectListed(page, [CLOSED_ENTRY], 'Feeling: Frustrated, the demo’s closed conversation');
  await screen.feeling.selectOption({ label: '⚽ Football' });
  await expectListed(page, [FOOTBALL_ENTRY], 'Feeling: Football');
  await screen.sharing.selectOption({ label: 'Shared with someone' });
  await expectListed(page, [FOOTBALL_ENTRY], 'Football, shared (with the key worker)');
  await screen.sharing.selectOption({ label: 'Only me' });
  await expectNoMatch(page, 'No entries match these filters.', 'Football, only me');

  // "Clear filters" empties every control and the search and brings the whole list back.
  await screen.search.fill('goal');
  await expectNoMatch(page, 'No entries match “goal” with these filters.', '"goal", Football, only me');
  await screen.clear.click();
  await expectControlsCleared(page);
  await expectListed(page, unfiltered, 'after Clear filters: the list as it was before filtering');
}

test('journal list: date range, feeling and sharing filters narrow the list exactly, with the search, and Clear filters brings it all back', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  await signInAsJamie(page);
  const entries = plan(stamp, await freeWindow(page));
  await createPlanned(page, entries, { cakeThroughForm: true });

  await openList(page);
  const unfiltered = await unfilteredListOnceSynced(page, stamp, entries);
  await exerciseFilters(page, stamp, entries, unfiltered);
});

test('journal list: the filters work offline, from the device alone, with an entry written offline', async ({ page, context }) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  await signInAsJamie(page);
  const entries = plan(stamp, await freeWindow(page));
  // Five through the API now; the sixth is written offline through the form below.
  const ali = await aliId(page);
  for (const entry of Object.values(entries)) if (entry !== entries.cake) await createThroughApi(page, entry, ali);

  await openList(page);
  await waitForWorker(page);
  const screen = listScreen(page);
  // The device holds the five before the signal goes.
  await screen.search.fill(stamp);
  await expectListed(page, texts(entries.parkTrip, entries.quietDay, entries.busPass, entries.schoolPlay, entries.rainyPark), 'the five, on the device');
  // The Excited reaction is offered in the journal form once the lookups are on the device.
  await page.goto('/journal');
  await expect(page.getByRole('radiogroup', { name: 'How are you feeling?' }).getByRole('radio', { name: 'Excited', exact: true })).toBeVisible({ timeout: 20_000 });

  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await writeThroughForm(page, entries.cake);
    await expect(page.getByText(entryMessages.offlineRetry)).toBeVisible();
    // (Dated years ago, it is not among the newest: found with the search.)
    await screen.search.fill(entries.cake.text);
    await expectListed(page, texts(entries.cake), 'the entry written offline, on the device');
    await expect(screen.cards.filter({ hasText: entries.cake.text }).getByText('Waiting to send')).toBeVisible();

    // A cold start with no network: the list and its filters come from the device.
    await page.reload();
    await expect(page.getByText('You are currently offline')).toBeVisible();
    await expect(screen.cards.first()).toBeVisible({ timeout: 20_000 });
    const unfiltered = await unfilteredListOnceSynced(page, stamp, entries);
    await exerciseFilters(page, stamp, entries, unfiltered);
    await expect(page.getByText('You are currently offline')).toBeVisible();
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  } finally {
    await context.setOffline(false);
  }
  // Back online, the entry written offline reaches the server once, with its date and reaction.
  await expect.poll(async () => (await jamiesJournal(page)).filter((r) => r.description === entries.cake.text).map((r) => [r.entry_date, r.entry_time, r.reaction]), { timeout: 60_000 }).toEqual([
    [entries.cake.date, entries.cake.time, '🤩'],
  ]);
});

test.describe('keyboard and axe', () => {
  // axe-core is injected as a script tag: let it past the app's CSP (script-src 'self') here only.
  test.use({ bypassCSP: true });

  test('journal list: the search and filters are reached and used with the keyboard only; axe finds nothing with filters applied or an empty result', async ({ page }) => {
    test.setTimeout(120_000);
    const stamp = Date.now().toString(36);
    await signInAsJamie(page);
    const entries = plan(stamp, await freeWindow(page));
    await createPlanned(page, entries, { cakeThroughForm: false });
    const { parkTrip, cake, quietDay, busPass, schoolPlay, rainyPark } = entries;
    const base = rainyPark.date;

    await openList(page);
    const screen = listScreen(page);
    await expect.poll(async () => (await screen.feeling.locator('option').allTextContents()).includes('😢 Sad'), { timeout: 30_000 }).toBe(true);
    await expectNoAxeViolations(page, '/journal/entries, no filter');

    // From the "Write an entry" link, Tab walks the search and each filter in order.
    await page.getByRole('navigation', { name: 'Journal' }).getByRole('link', { name: 'Write an entry' }).focus();
    await page.keyboard.press('Tab');
    await expect(screen.search).toBeFocused();
    await page.keyboard.type(stamp);
    await expectListed(page, texts(parkTrip, cake, quietDay, busPass, schoolPlay, rainyPark), 'typed search: the six');

    await page.keyboard.press('Tab');
    await expect(screen.from).toBeFocused();
    await typeDate(page, screen.from, addDays(base, 1));
    await tabFromDateField(page, screen.from, screen.to);
    await typeDate(page, screen.to, addDays(base, 5));
    await expectListed(page, texts(parkTrip, cake, quietDay, busPass, schoolPlay), 'typed dates: the second to sixth days');

    // A closed select takes the arrow keys: down to "😢 Sad".
    await tabFromDateField(page, screen.to, screen.feeling);
    const feelings = await screen.feeling.locator('option').allTextContents();
    const sad = feelings.indexOf('😢 Sad');
    expect(sad, JSON.stringify(feelings)).toBeGreaterThan(0);
    for (let i = 0; i < sad; i += 1) await page.keyboard.press('ArrowDown');
    await expect(screen.feeling).toHaveValue('😢');
    await expectListed(page, texts(parkTrip, busPass), 'Sad by keyboard');

    await page.keyboard.press('Tab');
    await expect(screen.sharing).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(screen.sharing).toHaveValue('shared');
    await expectListed(page, texts(parkTrip, busPass), 'Sad, shared by keyboard');
    await page.keyboard.press('ArrowDown');
    await expect(screen.sharing).toHaveValue('private');
    await expectNoMatch(page, `No entries match “${stamp}” with these filters.`, 'Sad, only me, in the second to sixth days');
    await expectNoAxeViolations(page, '/journal/entries, no match with filters');
    await page.keyboard.press('ArrowUp');
    await expectListed(page, texts(parkTrip, busPass), 'back to shared');
    await expectNoAxeViolations(page, '/journal/entries, filters applied');

    // Then "Clear filters", pressed with Enter.
    await page.keyboard.press('Tab');
    await expect(screen.clear).toBeFocused();
    await page.keyboard.press('Enter');
    await expectControlsCleared(page);
    await expect.poll(async () => (await listed(page)).length).toBeGreaterThan(2);
    expect(await listed(page)).toContain(TIRED_ENTRY);
    await expectNoAxeViolations(page, '/journal/entries, cleared');
  });
});

// ---------------------------------------------------------------------------------------------
// A closed conversation

test('a closed conversation: marked Closed with no edit link, the thread shows the staff comment and the closed note instead of a reply form, the edit screen says so too', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsJamie(page);
  await openList(page);
  const screen = listScreen(page);

  // Found in the list by searching for it.
  await screen.search.fill('TV remote');
  await expectListed(page, [CLOSED_ENTRY], 'the search finds the closed conversation');
  const card = screen.cards.filter({ hasText: CLOSED_ENTRY });
  await expect(card.locator('.badge--closed')).toHaveText('Closed conversation');
  await expect(card.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
  await expect(card.locator('a[href^="/journal/edit/"]')).toHaveCount(0);

  // An open entry's card, for contrast: an edit link and no Closed marker.
  await screen.search.fill('Tired today');
  await expectListed(page, [TIRED_ENTRY], 'an open demo entry');
  const open = screen.cards.filter({ hasText: TIRED_ENTRY });
  await expect(open.getByRole('link', { name: /^Edit/ })).toHaveCount(1);
  await expect(open.getByText('Closed')).toHaveCount(0);

  await screen.search.fill('TV remote');
  await expectListed(page, [CLOSED_ENTRY], 'the closed conversation again');
  await card.getByRole('link', { name: '1 comment' }).click();
  await expect(page).toHaveURL(/\/entries\/comments\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const server = (await jamiesJournal(page)).find((r) => r.id === id);
  expect(server?.description).toBe(CLOSED_ENTRY);
  expect(server?.locked_at, 'closed on the server').toBeTruthy();

  // The thread: what jamie wrote, Beth's comment, and the closed note where the reply form was.
  await expect(page.getByRole('region', { name: 'What you wrote' }).getByText(CLOSED_ENTRY)).toBeVisible();
  const comments = page.getByRole('region', { name: 'Comments' });
  const beth = comments.getByRole('article', { name: 'Comment from Beth Okafor' });
  await expect(beth).toBeVisible({ timeout: 20_000 });
  await expect(beth).toContainText('made a TV rota, so I am closing this one');
  await expect(page.getByRole('note')).toHaveText(entryMessages.locked);
  await expect(page.getByRole('form', { name: 'Reply' })).toHaveCount(0);
  await expect(page.getByLabel('Your message')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send reply' })).toHaveCount(0);
  // Still so after a reload (from the replica, not from the moment of opening).
  await page.reload();
  await expect(comments.getByRole('article', { name: 'Comment from Beth Okafor' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('note')).toHaveText(entryMessages.locked);
  await expect(page.getByRole('form', { name: 'Reply' })).toHaveCount(0);

  // The edit screen, opened by its address: the same message, not the form.
  await page.goto(`/journal/edit/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit journal entry' })).toBeVisible();
  await expect(page.getByText('This entry can’t be changed.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(entryMessages.locked)).toBeVisible();
  await expect(page.getByRole('textbox', { name: /on your mind/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.getByRole('link', { name: 'See the conversation' }).click();
  await expect(page).toHaveURL(new RegExp(`/entries/comments/${id}$`));
  await expect(page.getByRole('note')).toHaveText(entryMessages.locked);

  // The server refuses a change and a reply too, with the same words.
  const update = await postAsJamie(page, `${JOURNAL_API}/${id}?_method=PUT`, { description: 'Changed my mind' });
  expect(update.status(), await update.text()).toBe(422);
  expect(await update.text()).toContain(entryMessages.locked);
  const reply = await postAsJamie(page, `${JOURNAL_API}/comments`, { entry_id: id, comment: 'One more thing' });
  expect(reply.status(), await reply.text()).toBe(422);
  expect((await jamiesJournal(page)).find((r) => r.id === id)?.description).toBe(CLOSED_ENTRY);
});

// ---------------------------------------------------------------------------------------------
// Voice: shared with the key worker and home management unless unticked

async function voiceEntryOnServer(page: Page, text: string): Promise<VoiceRow> {
  let found: VoiceRow | undefined;
  await expect
    .poll(async () => {
      found = (await getJson<{ data: VoiceRow[] }>(page, `${VOICE_API}?per_page=50&search_term=${encodeURIComponent(text)}`)).data.find((r) => r.description === text);
      return found?.id ?? '';
    }, { message: `"${text}" on the server`, timeout: 45_000 })
    .not.toBe('');
  return found!;
}

test('voice: a concern starts shared with the key worker and home management and says so; only they can read it; unticked, no staff can', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const shared = `The shower upstairs has no hot water again (${stamp})`;
  const kept = `I just want to write down that I miss my old school (${stamp})`;
  await signInAsJamie(page);
  const ali = await aliId(page);

  // Chosen at once: the form starts with Ali (jamie's key worker) and home management ticked.
  await page.goto('/voice');
  await page.getByRole('button', { name: /Raise a concern/ }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Raise a concern' })).toBeVisible();
  const aliBox = page.getByRole('checkbox', { name: /Ali Hassan/ });
  const management = page.getByRole('checkbox', { name: 'Home management' });
  await expect(aliBox).toBeChecked();
  await expect(management).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Beth Okafor/ })).not.toBeChecked();
  await expect(page.getByText('You, Ali Hassan and home management will see this entry.')).toBeVisible();
  await page.getByLabel('What would you like to say?').fill(shared);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page).toHaveURL(/\/voice\/success$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Sent: Raise a concern' })).toBeVisible();
  await expect(page.getByText(/^Staff will read this and talk to you about it\./)).toBeVisible();

  const sharedRow = await voiceEntryOnServer(page, shared);
  expect(sharedRow.shared_with).toEqual([ali]);
  expect(sharedRow.shared_with_management).toBe(true);
  // Ali (key worker) and Priya (the home's manager) read it; Beth and Dan, carers of the same home it was not shared with, get 404.
  expect(await staffStatuses(['carer.ali', 'manager.priya', 'carer.beth', 'carer.dan'], `${VOICE_API}/${sharedRow.id}`)).toEqual({
    'carer.ali': 200,
    'manager.priya': 200,
    'carer.beth': 404,
    'carer.dan': 404,
  });
  const asAli = await signInStaff('carer.ali');
  try {
    const read = await asAli.get(`${VOICE_API}/${sharedRow.id}`);
    expect(((await read.json()) as { data: VoiceRow }).data.description).toBe(shared);
  } finally {
    await asAli.dispose();
  }

  // A second message with both unticked: only jamie.
  await page.goto('/voice');
  await page.getByRole('button', { name: /Raise a concern/ }).click();
  await expect(aliBox).toBeChecked();
  await aliBox.uncheck();
  await management.uncheck();
  await expect(page.getByText('Only you will see this entry.')).toBeVisible();
  await page.getByLabel('What would you like to say?').fill(kept);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page).toHaveURL(/\/voice\/success$/);
  await expect(page.getByText(/You chose to keep this to yourself, so staff will not see it\./)).toBeVisible();
  await expect(page.getByText(/Staff will read/)).toHaveCount(0);

  const keptRow = await voiceEntryOnServer(page, kept);
  expect(keptRow.shared_with).toEqual([]);
  expect(keptRow.shared_with_management).toBe(false);
  expect(await staffStatuses(['carer.ali', 'manager.priya'], `${VOICE_API}/${keptRow.id}`)).toEqual({ 'carer.ali': 404, 'manager.priya': 404 });
  expect((await page.request.get(`${VOICE_API}/${keptRow.id}`)).status(), 'jamie reads his own').toBe(200);
});
