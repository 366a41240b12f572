import fc from 'fast-check';
import { type APIRequestContext, type Browser, type BrowserContext, type Page, type Request, type Route } from '@playwright/test';
import { expect, followOffline, test } from './support/offline';
import { DEFAULT_SEED, envInt, sequenceSeed } from '../tests/support/chaos-seeds';
import { signInAsJamie } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * The Playwright slice of issue 12's chaos suite (most of it runs at the data layer, in
 * tests/data/chaos.test.ts): seeded random sequences of what jamie does in Chromium, against the
 * real server and its real service worker, with the network failing under it.
 *
 * Two devices of jamie (two browser contexts, each signed in with the password): on the first,
 * writing, editing and replying through the screens; going offline and online
 * (context.setOffline); reloading; closing the page and opening a new one; the server answering 500
 * or 503, or the request timing out, before the server saw it or after it applied it (the answer
 * replaced on its way back). The faults are injected with the context's routes in front of the real
 * server (they see the service worker's requests too, where the outbox sends from), never a mock of
 * it. The second device edits the same entries through its own screens, so the two race and edit
 * conflicts happen both ways.
 *
 * After each sequence stops, every write the first device never heard a 2xx for is still on it (its
 * words on the entry's card, waiting or refused). Then it settles (online, no faults, pages
 * reloaded) and, through jamie's API: every acknowledged create is on the server exactly once,
 * nothing of the sequence is there twice, every acknowledged reply is there once with its words,
 * and every entry reads as the last version the server applied (by its own clock: nothing older
 * wins). Where the first device's change met the second's, both versions are kept: the server has
 * the other one, the device shows its own beside it; the young person then chooses (keep mine, the
 * other one, or both, from the seed) and the outcome is checked on the server.
 *
 * CHAOS_SEED=<n> replays (CHAOS_E2E_SEQUENCES=<n> scales it; the first sequence of a run uses the
 * seed itself, so a failing sequence's printed seed replays it alone). Desktop project only: the
 * phone project would double CI's time for the same code paths.
 */

const BASE_SEED = envInt('CHAOS_SEED') ?? DEFAULT_SEED;
const SEQUENCES = envInt('CHAOS_E2E_SEQUENCES') ?? 3;
const JOURNAL_API = '/api/v1/projects/residents/journal/entries';
/** src/entries/data/write-support.ts STILL_SENDING (that module loads the app's image code). */
const STILL_SENDING = 'This entry is still being sent. Please try again in a moment.';
const ENTRY_WRITE = /\/api\/v1\/projects\/residents\/journal\/entries(\/[^/?]+)?(\?.*)?$/;
const COMMENT_WRITE = /\/api\/v1\/projects\/residents\/journal\/entries\/comments(\/[^/?]+)?(\?.*)?$/;

// --- the actions -------------------------------------------------------------------------------

type FaultKind = 500 | 503 | 'timeout';
type Action =
  | { readonly kind: 'write' }
  | { readonly kind: 'edit'; readonly pick: number }
  | { readonly kind: 'comment'; readonly pick: number }
  | { readonly kind: 'offline' }
  | { readonly kind: 'online' }
  | { readonly kind: 'reload' }
  | { readonly kind: 'close-reopen' }
  /** The next `times` writes of the first device meet this fault, before the server or after it applied them. */
  | { readonly kind: 'fault'; readonly fault: FaultKind; readonly phase: 'before' | 'after'; readonly times: number }
  | { readonly kind: 'other-edit'; readonly pick: number }
  | { readonly kind: 'both-edit'; readonly pick: number };

const pick = fc.nat({ max: 5 });
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'write' } as const) },
  { weight: 5, arbitrary: pick.map((p) => ({ kind: 'edit', pick: p }) as const) },
  { weight: 2, arbitrary: pick.map((p) => ({ kind: 'comment', pick: p }) as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'offline' } as const) },
  { weight: 2, arbitrary: fc.constant({ kind: 'online' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reload' } as const) },
  { weight: 1, arbitrary: fc.constant({ kind: 'close-reopen' } as const) },
  {
    weight: 4,
    arbitrary: fc
      .record({ fault: fc.constantFrom<FaultKind>(500, 503, 'timeout'), phase: fc.constantFrom('before' as const, 'after' as const), times: fc.integer({ min: 1, max: 2 }) })
      .map((f) => ({ kind: 'fault', ...f }) as const),
  },
  { weight: 2, arbitrary: pick.map((p) => ({ kind: 'other-edit', pick: p }) as const) },
  { weight: 3, arbitrary: pick.map((p) => ({ kind: 'both-edit', pick: p }) as const) },
);
/** Every sequence begins with a new entry, so edits and replies have something to act on. */
const sequenceArbitrary = fc.array(actionArbitrary, { minLength: 4, maxLength: 6 }).map((rest) => [{ kind: 'write' } as const, ...rest]);
const actionsFor = (seed: number): Action[] => fc.sample(sequenceArbitrary, { seed, numRuns: 1 })[0]!;

function describeAction(action: Action): string {
  if (action.kind === 'fault') return `fault(${action.fault} ${action.phase} x${action.times})`;
  if ('pick' in action) return `${action.kind}(#${action.pick})`;
  return action.kind;
}

// --- what the wire saw -------------------------------------------------------------------------

interface Heard {
  readonly key: string;
  readonly url: string;
  /** The request's body as text (multipart or JSON): writes are told apart by their unique words. */
  readonly body: string;
  /** What the device heard (an injected fault replaces the server's answer). */
  readonly status: number;
  readonly data: { id?: string; description?: string | null; comment?: string | null; updated_at?: string } | null;
}

/** Every answer to a journal write of one device, as the device heard it and as the server gave it. */
class Wire {
  /** What the device heard: 2xx here is an acknowledgement. */
  readonly heard: Heard[] = [];
  /** What the server answered, whether or not the device heard it. */
  readonly server: Heard[] = [];
  readonly injected = new Map<string, number>();
  readonly faults: { fault: FaultKind; phase: 'before' | 'after' }[] = [];
  fromWorker = 0;
  fromPage = 0;
  /** Writes that reached the routes while the device was offline (the browser then fails them). */
  whileOffline = 0;

  count(what: string): void {
    this.injected.set(what, (this.injected.get(what) ?? 0) + 1);
  }

  /** Whether the device heard a 2xx for a request carrying these words. */
  acked(text: string): boolean {
    return this.heard.some((h) => carries(h.body, text) && h.status >= 200 && h.status < 300);
  }

  /** Whether any request carrying these words went out (and so: its Idempotency-Key). */
  keyOf(text: string): string | null {
    return [...this.heard, ...this.server].find((h) => carries(h.body, text))?.key ?? null;
  }
}

/** A multipart field or JSON string holding exactly these words (e0 v1 is not e0 v12). */
const carries = (body: string, text: string): boolean => body.includes(`${text}\r\n`) || body.includes(`"${text}"`);

const isWrite = (request: Request) => request.method() === 'POST' && (ENTRY_WRITE.test(request.url()) || COMMENT_WRITE.test(request.url()));

async function bodyOf(response: { json(): Promise<unknown> }): Promise<Heard['data']> {
  try {
    const body = (await response.json()) as { data?: Heard['data'] };
    return body?.data && typeof body.data === 'object' ? body.data : null;
  } catch {
    return null;
  }
}

const bodyText = (request: Request): string => request.postDataBuffer()?.toString('utf8') ?? '';

/** Watches a device's journal writes (page and service worker) and lets faults be injected in front of the server. */
async function watch(context: BrowserContext, wire: Wire, online: () => boolean): Promise<void> {
  context.on('response', (response) => {
    const request = response.request();
    if (!isWrite(request)) return;
    void (async () => {
      const key = (await request.allHeaders())['idempotency-key'] ?? '';
      wire.heard.push({ key, url: request.url(), body: bodyText(request), status: response.status(), data: await bodyOf(response) });
    })();
  });
  await context.route(
    (url) => ENTRY_WRITE.test(url.href) || COMMENT_WRITE.test(url.href),
    async (route: Route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.fallback();
      // Offline: the network is down for the page and the service worker alike (whatever the
      // browser's emulation covers), and no fault is spent on it.
      if (!online()) {
        wire.whileOffline += 1;
        return route.abort('internetdisconnected');
      }
      if (request.serviceWorker()) wire.fromWorker += 1;
      else wire.fromPage += 1;
      const key = (await request.allHeaders())['idempotency-key'] ?? '';
      const fault = wire.faults.shift();
      if (fault?.phase === 'before') {
        wire.count(`${fault.fault} before`);
        if (fault.fault === 'timeout') return route.abort('timedout');
        return route.fulfill({ status: fault.fault, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Server Error' }), headers: fault.fault === 503 ? { 'Retry-After': '1' } : {} });
      }
      // The real server answers (and, on the way back, a fault may replace it).
      const response = await route.fetch().catch(() => null);
      if (!response) return route.abort('failed');
      wire.server.push({ key, url: request.url(), body: bodyText(request), status: response.status(), data: await bodyOf(response) });
      if (!fault) return route.fulfill({ response });
      wire.count(`${fault.fault} after`);
      if (fault.fault === 'timeout') return route.abort('timedout');
      return route.fulfill({ status: fault.fault, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Server Error' }) });
    },
  );
}

// --- the two devices -----------------------------------------------------------------------------

interface Device {
  readonly name: string;
  readonly context: BrowserContext;
  page: Page;
  readonly wire: Wire;
  online: boolean;
}

async function openDevice(browser: Browser, name: string): Promise<Device> {
  const context = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/London' });
  followOffline(context);
  const wire = new Wire();
  const page = await context.newPage();
  const device: Device = { name, context, page, wire, online: true };
  await watch(context, wire, () => device.online);
  await signInAsJamie(page);
  await waitForWorker(page);
  return device;
}

const textbox = (page: Page) => page.getByRole('textbox', { name: /on your mind/ });

/**
 * Moves within the app as its links do (the router follows history), without loading the page
 * again: a full load per step would cost the suite most of its time in app starts. Reloads and new
 * pages are actions of their own.
 */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The entry's card in a device's list, found by its words (e0 v1 is not e0 v12). */
const cardWith = (page: Page, text: string) => page.getByRole('article').filter({ hasText: new RegExp(`${escaped(text)}(?!\\d)`) });

// --- one sequence ----------------------------------------------------------------------------------

interface DeviceWrite {
  readonly kind: 'create' | 'edit' | 'comment';
  readonly entry: string;
  /** The words, unique in the run: how its requests are found on the wire. */
  readonly text: string;
}

interface Totals {
  sequences: number;
  actions: number;
  writes: number;
  acknowledged: number;
  otherEdits: number;
  lost: number;
  doubled: number;
  server5xx: number;
  conflicts: number;
  keptBoth: number;
  resolved: Map<string, number>;
  skipped: Map<string, number>;
  /** Each sequence's actions, for the summary. */
  ran: string[];
}

class Sequence {
  readonly writes: DeviceWrite[] = [];
  readonly entries: string[] = [];
  readonly problems: string[] = [];
  readonly log: string[] = [];
  /** The second device's applied edits, in the server's order of versions. */
  readonly others: { entry: string; text: string; at: string }[] = [];
  private versions = new Map<string, number>();

  constructor(
    readonly tag: string,
    readonly seed: number,
    readonly me: Device,
    readonly other: Device,
    readonly totals: Totals,
  ) {}

  problem(kind: 'lost' | 'doubled' | 'other', text: string): void {
    if (kind === 'lost') this.totals.lost += 1;
    if (kind === 'doubled') this.totals.doubled += 1;
    this.problems.push(`${kind === 'other' ? '' : `[${kind}] `}${text}`);
  }

  private skip(why: string): void {
    this.totals.skipped.set(why, (this.totals.skipped.get(why) ?? 0) + 1);
    this.log.push(`  skipped: ${why}`);
  }

  private nextText(index: number, what: string): string {
    const key = `${index}:${what}`;
    const v = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, v);
    return `${this.tag} e${index} ${what}${v}`;
  }

  private entryAt(pick: number): { id: string; index: number } | null {
    if (this.entries.length === 0) return null;
    const index = pick % this.entries.length;
    return { id: this.entries[index]!, index };
  }

  async perform(action: Action): Promise<void> {
    this.totals.actions += 1;
    this.log.push(`[${new Date().toISOString().slice(11, 23)}] ${describeAction(action)}`);
    const { page } = this.me;
    switch (action.kind) {
      case 'write': {
        const index = this.entries.length;
        const text = this.nextText(index, 'v');
        await go(page, '/journal');
        await textbox(page).fill(text);
        await page.getByRole('button', { name: 'Save entry' }).click();
        await expect(page).toHaveURL(/\/journal\/entries$/);
        await expect(cardWith(page, text)).toBeVisible();
        // The new entry's id: its edit link.
        const href = await cardWith(page, text).getByRole('link', { name: /^Edit/ }).getAttribute('href');
        const id = href?.split('/').pop() ?? '';
        expect(id, `the new entry's id (${text})`).toMatch(/^[0-9a-f-]{36}$/);
        this.entries.push(id);
        this.writes.push({ kind: 'create', entry: id, text });
        this.totals.writes += 1;
        return;
      }
      case 'edit': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        const text = this.nextText(entry.index, 'v');
        if (!(await this.editOn(this.me, entry.id, text))) return;
        this.writes.push({ kind: 'edit', entry: entry.id, text });
        this.totals.writes += 1;
        return;
      }
      case 'comment': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        const text = this.nextText(entry.index, 'c');
        await go(page, `/entries/comments/${entry.id}`);
        const form = page.getByRole('form', { name: 'Reply' });
        const waiting = page.getByText('You can reply once your entry has been sent.');
        await expect(form.or(waiting)).toBeVisible();
        if (await waiting.isVisible()) return this.skip('reply: the entry is not sent yet');
        await form.getByLabel('Your message').fill(text);
        await form.getByRole('button', { name: 'Send reply' }).click();
        const mine = page.getByRole('article', { name: 'Comment from You' }).filter({ hasText: text });
        await expect(mine).toBeVisible();
        this.writes.push({ kind: 'comment', entry: entry.id, text });
        this.totals.writes += 1;
        return;
      }
      case 'offline':
        this.me.online = false;
        await this.me.context.setOffline(true);
        return;
      case 'online':
        this.me.online = true;
        await this.me.context.setOffline(false);
        return;
      case 'reload':
        await page.reload();
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        return;
      case 'close-reopen':
        await page.close();
        this.me.page = await this.me.context.newPage();
        await this.me.page.goto('/journal/entries');
        await expect(this.me.page.getByRole('heading', { level: 1, name: 'Journal entries' })).toBeVisible();
        return;
      case 'fault':
        for (let i = 0; i < action.times; i += 1) this.me.wire.faults.push({ fault: action.fault, phase: action.phase });
        return;
      case 'other-edit': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        await this.otherEdits(entry);
        return;
      }
      case 'both-edit': {
        const entry = this.entryAt(action.pick);
        if (!entry) return;
        // The second device opens the entry first, then both change it: whoever is second meets the first.
        await this.perform({ kind: 'edit', pick: action.pick });
        await this.otherEdits(entry);
        return;
      }
    }
  }

  /** Opens the entry's edit page on a device and saves `text`; false when the entry is not on that device (within `wait`). */
  private async editOn(device: Device, id: string, text: string, wait = 5_000): Promise<boolean> {
    const { page } = device;
    await go(page, `/journal/edit/${id}`);
    // The edit page follows the replica: it shows the form as soon as the entry is on the device.
    const arrived = await textbox(page)
      .waitFor({ timeout: wait })
      .then(() => true)
      .catch(() => false);
    if (!arrived) {
      this.skip(`${device.name}: the entry is not on the device`);
      return false;
    }
    await textbox(page).fill(text);
    await page.getByRole('button', { name: 'Save changes' }).click();
    // An entry whose create may be on its way cannot be changed yet (src/entries/data/write-support.ts).
    const stillSending = page.getByText(STILL_SENDING).first();
    await expect(page.getByRole('heading', { level: 1, name: 'Journal entries' }).or(stillSending)).toBeVisible();
    if (await stillSending.isVisible()) {
      this.skip(`${device.name}: the entry is still being sent`);
      return false;
    }
    return true;
  }

  private async otherEdits(entry: { id: string; index: number }): Promise<void> {
    const text = this.nextText(entry.index, 'o');
    // The other device has the entry once its change stream and pull bring it.
    if (!(await this.editOn(this.other, entry.id, text, 15_000))) return;
    this.totals.otherEdits += 1;
    this.log.push(`  other device saved "${text}"`);
  }

  // --- checks --------------------------------------------------------------------------------

  private latestOf(write: DeviceWrite): boolean {
    const same = this.writes.filter((w) => (write.kind === 'comment' ? w === write : w.kind !== 'comment' && w.entry === write.entry));
    return same.at(-1) === write;
  }

  /** Stopped mid-chaos: every change the device never heard a 2xx for is on its card, waiting or refused. */
  async checkUnacknowledgedOnDevice(): Promise<void> {
    const { page } = this.me;
    await go(page, '/journal/entries');
    await expect(page.getByRole('heading', { level: 1, name: 'Journal entries' })).toBeVisible();
    for (const write of this.writes) {
      if (write.kind === 'comment' || !this.latestOf(write)) continue;
      if (this.me.wire.acked(write.text)) continue;
      const card = cardWith(page, write.text);
      const shown = await card.first().isVisible({ timeout: 15_000 }).catch(() => false);
      if (!shown) {
        this.problem('lost', `unacknowledged ${write.kind} "${write.text}" is not on the device`);
        continue;
      }
      const waiting = await card.first().getByText('Waiting to send').isVisible().catch(() => false);
      const refused = await card.first().getByRole('alert').isVisible().catch(() => false);
      if (!waiting && !refused) this.problem('other', `unacknowledged ${write.kind} "${write.text}" is on the device neither waiting nor refused`);
    }
  }

  /** Online, no faults, the pages reloaded: the outbox drains (or what the server refused waits for jamie). */
  async settle(): Promise<void> {
    this.me.wire.faults.length = 0;
    for (const device of [this.me, this.other]) {
      device.online = true;
      // Offline then online: the `online` event makes every backed-off write due at once.
      await device.context.setOffline(true);
      await device.context.setOffline(false);
      await device.page.goto('/journal/entries');
      await expect(device.page.getByRole('heading', { level: 1, name: 'Journal entries' })).toBeVisible();
    }
    // Nothing left waiting to send on either device (refused ones wait for the young person).
    for (const device of [this.me, this.other]) {
      await expect(cardWith(device.page, this.tag).getByText('Waiting to send'), `${device.name}: nothing waiting`).toHaveCount(0, { timeout: 45_000 });
    }
  }

  /** The last version the server applied of an entry, by its clock: every 2xx the server gave either device. */
  private latestVersion(entry: string): { at: string; text: string } | null {
    const versions = [this.me.wire, this.other.wire]
      .flatMap((wire) => wire.server.concat(wire.heard))
      .filter((h) => h.status >= 200 && h.status < 300 && !COMMENT_WRITE.test(h.url) && h.data?.id === entry && h.data.updated_at)
      .map((h) => ({ at: h.data!.updated_at!, text: h.data!.description ?? '' }));
    return versions.reduce<{ at: string; text: string } | null>((latest, v) => (!latest || v.at > latest.at ? v : latest), null);
  }

  async checkServer(api: APIRequestContext): Promise<string[]> {
    const rows = (await json<{ data: { id: string; description: string | null }[] }>(api, `${JOURNAL_API}?per_page=200&search_term=${encodeURIComponent(this.tag)}`)).data;
    const conflicted: string[] = [];
    for (const row of rows) if (!this.entries.includes(row.id)) this.problem('doubled', `the server has an entry ${row.id} "${row.description}" no write of this sequence made`);
    for (const entry of this.entries) {
      const create = this.writes.find((w) => w.kind === 'create' && w.entry === entry)!;
      const copies = rows.filter((r) => r.id === entry);
      const acked = this.writes.filter((w) => w.entry === entry && w.kind !== 'comment').some((w) => this.me.wire.acked(w.text));
      if (acked && copies.length !== 1) this.problem(copies.length > 1 ? 'doubled' : 'lost', `entry "${create.text}" (acknowledged) is on the server ${copies.length} times`);
      const row = copies[0];
      if (!row) {
        if (acked) continue;
        this.problem('lost', `entry "${create.text}" never reached the server after settling`);
        continue;
      }
      const latest = this.latestVersion(entry);
      if (latest && row.description !== latest.text) this.problem('lost', `entry ${entry} reads "${row.description}" on the server, but the last version it applied is "${latest.text}" (${latest.at})`);
      // The first device's last change: acknowledged, or refused as a conflict with both versions kept.
      const last = this.writes.filter((w) => w.entry === entry && w.kind !== 'comment').at(-1)!;
      if (this.me.wire.acked(last.text)) continue;
      const refused = [...this.me.wire.heard].filter((h) => h.url.includes(entry) && h.status === 412);
      if (refused.length === 0) {
        this.problem('lost', `"${last.text}" was never acknowledged and not refused as a conflict`);
        continue;
      }
      this.totals.conflicts += 1;
      const card = cardWith(this.me.page, last.text);
      const mine = card.getByRole('region', { name: 'Yours, on this phone or tablet' });
      const theirs = card.getByRole('region', { name: 'The other one' });
      const both = (await mine.getByText(last.text).isVisible({ timeout: 15_000 }).catch(() => false)) && (await expect(theirs).toContainText(row.description ?? '', { timeout: 15_000 }).then(() => true).catch(() => false));
      if (!both) {
        this.problem('lost', `conflict on ${entry}: the device does not show "${last.text}" beside the server's "${row.description}"`);
        continue;
      }
      this.totals.keptBoth += 1;
      conflicted.push(entry);
    }
    // Replies: every acknowledged one on the server once, with its words.
    for (const write of this.writes.filter((w) => w.kind === 'comment')) {
      if (!this.me.wire.acked(write.text)) {
        this.problem('lost', `reply "${write.text}" was never acknowledged after settling`);
        continue;
      }
      const thread = (await json<{ data: { id: string; comment: string | null }[] }>(api, `${JOURNAL_API}/${write.entry}/comments?per_page=200`)).data;
      const copies = thread.filter((c) => c.comment === write.text);
      if (copies.length !== 1) this.problem(copies.length > 1 ? 'doubled' : 'lost', `reply "${write.text}" is on the server ${copies.length} times`);
    }
    for (const write of this.writes) if (this.me.wire.acked(write.text)) this.totals.acknowledged += 1;
    return conflicted;
  }

  /** The young person chooses in each conflict (from the seed), and the server ends with what they chose. */
  async resolve(api: APIRequestContext, conflicted: string[]): Promise<void> {
    const choices = ['Keep mine', 'Keep the other one', 'Keep both'] as const;
    const { page } = this.me;
    for (const [i, entry] of conflicted.entries()) {
      const choice = choices[((this.seed >>> 0) + i) % 3]!;
      const last = this.writes.filter((w) => w.entry === entry && w.kind !== 'comment').at(-1)!;
      const card = cardWith(page, last.text).filter({ has: page.getByRole('region', { name: 'The other one' }) });
      const theirs = (await card.getByRole('region', { name: 'The other one' }).textContent())?.replace('The other one', '').trim() ?? '';
      await card.getByRole('button', { name: choice, exact: true }).click();
      if (choice === 'Keep the other one') await page.getByRole('dialog', { name: 'Keep the other one?' }).getByRole('button', { name: 'Keep the other one' }).click();
      this.totals.resolved.set(choice, (this.totals.resolved.get(choice) ?? 0) + 1);
      this.log.push(`  conflict on ${entry.slice(0, 8)}: ${choice}`);
      const words = async () => (await json<{ data: { description: string | null } }>(api, `${JOURNAL_API}/${entry}`)).data.description;
      const want = choice === 'Keep mine' ? last.text : theirs;
      await expect.poll(words, { message: `after ${choice} on ${entry}`, timeout: 30_000 }).toBe(want);
      if (choice === 'Keep both') {
        await expect
          .poll(async () => (await json<{ data: { id: string; description: string | null }[] }>(api, `${JOURNAL_API}?per_page=200&search_term=${encodeURIComponent(last.text)}`)).data.filter((r) => r.description === last.text).length, {
            message: `after Keep both, "${last.text}" as a new entry once`,
            timeout: 30_000,
          })
          .toBe(1);
      }
    }
  }
}

async function json<T>(api: APIRequestContext, path: string): Promise<T> {
  const response = await api.get(path, { headers: { Accept: 'application/json' } });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

// --- the suite -------------------------------------------------------------------------------------

test('chaos in Chromium: seeded sequences of writes, edits and replies from two devices through a failing network', async ({ browser }) => {
  test.setTimeout(240_000);
  test.info().annotations.push({ type: 'chaos seed', description: `CHAOS_SEED=${BASE_SEED} CHAOS_E2E_SEQUENCES=${SEQUENCES}` });
  const totals: Totals = { sequences: 0, actions: 0, writes: 0, acknowledged: 0, otherEdits: 0, lost: 0, doubled: 0, server5xx: 0, conflicts: 0, keptBoth: 0, resolved: new Map(), skipped: new Map(), ran: [] };
  const started = Date.now();
  const me = await openDevice(browser, 'this device');
  const other = await openDevice(browser, 'other device');
  const failures: string[] = [];
  try {
    for (let index = 0; index < SEQUENCES; index += 1) {
      const seed = sequenceSeed(BASE_SEED, index);
      const replay = `CHAOS_SEED=${seed} CHAOS_E2E_SEQUENCES=1 npx playwright test e2e/chaos.spec.ts --project desktop`;
      const actions = actionsFor(seed);
      const sequence = new Sequence(`chaos-e2e-${(seed >>> 0).toString(36)}-${index}-${Date.now().toString(36)}`, seed, me, other, totals);
      totals.sequences += 1;
      totals.ran.push(`  sequence ${index} (CHAOS_SEED=${seed}): ${actions.map(describeAction).join(', ')}`);
      try {
        for (const action of actions) await sequence.perform(action);
        await sequence.checkUnacknowledgedOnDevice();
        await sequence.settle();
        const conflicted = await sequence.checkServer(me.page.request);
        await sequence.resolve(me.page.request, conflicted);
      } catch (error) {
        sequence.problem('other', `threw: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (sequence.problems.length) {
        failures.push(
          [
            `sequence ${index} (CHAOS_SEED=${seed}) failed. Replay: ${replay}`,
            `problems:\n  ${sequence.problems.join('\n  ')}`,
            `actions: ${actions.map(describeAction).join(', ')}`,
            `log:\n  ${sequence.log.join('\n  ')}`,
            `writes:\n  ${sequence.writes.map((w) => `${w.kind} ${w.entry.slice(0, 8)} key ${me.wire.keyOf(w.text)?.slice(0, 8)} ${me.wire.acked(w.text) ? 'acked' : 'not acked'} "${w.text}"`).join('\n  ')}`,
            `wire (this device heard / the server answered):\n  ${[...me.wire.heard.map((h) => ({ ...h, who: 'heard' })), ...me.wire.server.map((h) => ({ ...h, who: 'server' }))]
              .filter((h) => h.body.includes(sequence.tag))
              .map((h) => `${h.who} ${h.key.slice(0, 8)} ${new URL(h.url).pathname.split('/').slice(-2).join('/')} ${h.status} "${h.data?.description ?? h.data?.comment ?? ''}" ${h.data?.updated_at ?? ''}`)
              .join('\n  ')}`,
            `this device's cards: ${JSON.stringify(await me.page.getByRole('article').allInnerTexts().catch(() => []))}`,
          ].join('\n'),
        );
        // A broken sequence leaves the devices in a state the next one cannot start from.
        break;
      }
    }
  } finally {
    totals.server5xx = [me.wire, other.wire].flatMap((w) => w.server).filter((h) => h.status >= 500).length;
    const list = (map: Map<string, number>) => [...map].map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
    const summary = [
      `chaos e2e: seed ${BASE_SEED}, ${totals.sequences} sequences in ${((Date.now() - started) / 1000).toFixed(1)}s (${failures.length} failed)`,
      `  actions ${totals.actions}, writes ${totals.writes}, acknowledged ${totals.acknowledged}, other device's edits ${totals.otherEdits}; skipped: ${list(totals.skipped)}`,
      `  injected: ${list(me.wire.injected)}; writes sent by the service worker ${me.wire.fromWorker}, by the page ${me.wire.fromPage}, tried while offline ${me.wire.whileOffline}`,
      `  edit conflicts ${totals.conflicts}, both versions kept ${totals.keptBoth}; resolved: ${list(totals.resolved)}`,
      `  lost ${totals.lost}, doubled ${totals.doubled}, 5xx from our server ${totals.server5xx}`,
      ...totals.ran,
    ].join('\n');
    console.log(summary);
    test.info().annotations.push({ type: 'chaos summary', description: summary });
    await me.context.close();
    await other.context.close();
  }
  expect(failures, failures.join('\n\n')).toEqual([]);
});
