import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, request as playwrightRequest, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_SITE } from './support/accounts';
import { signInAsJamie, signOut } from './support/sign-in';
import { waitForWorker } from './support/worker';

/**
 * What a real Chromium profile holds on disk: nothing a young person wrote or received in plain
 * text while signed in, and nothing of theirs after logout. A persistent context, so the profile's
 * files (IndexedDB, Cache Storage, localStorage...) are real files this test can read.
 */

// The config's Chromium flags (playwright.config.ts).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

test.skip(({ isMobile }) => isMobile, 'one profile on disk is enough; the phone layout is covered elsewhere');

async function launchProfile(dir: string): Promise<{ context: BrowserContext; page: Page }> {
  const use = test.info().project.use;
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    baseURL: use.baseURL,
    viewport: use.viewport ?? { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

/** Every file under `dir` (a profile), read whole. */
function profileFiles(dir: string): { path: string; bytes: Buffer }[] {
  const files: { path: string; bytes: Buffer }[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue; // a socket or a link that went away
      }
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.push({ path, bytes: readFileSync(path) });
    }
  };
  walk(dir);
  return files;
}

/** Files holding `text` as UTF-8 (also Latin-1 for ASCII) or UTF-16LE (V8's two-byte strings). */
function filesContaining(files: { path: string; bytes: Buffer }[], text: string): string[] {
  const utf8 = Buffer.from(text, 'utf8');
  const utf16 = Buffer.from(text, 'utf16le');
  return files.filter((f) => f.bytes.includes(utf8) || f.bytes.includes(utf16)).map((f) => f.path);
}

const newCanary = () => `CANARY-${randomBytes(16).toString('hex')}`;

/** carer.ali signs in through the API (the app refuses staff) and comments on one of jamie's journal entries. */
async function staffComment(page: Page, comment: string): Promise<void> {
  const list = await page.request.get('/api/v1/projects/residents/feedback?per_page=50', { headers: { Accept: 'application/json' } });
  expect(list.ok(), await list.text()).toBe(true);
  const items = ((await list.json()) as { data: { type: string; entry_id: string }[] }).data;
  const entryId = items.find((item) => item.type === 'journal')?.entry_id;
  expect(entryId, 'jamie has a journal thread').toBeTruthy();

  const carer = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const xsrf = async () => {
      const cookie = (await carer.storageState()).cookies.find((c) => c.name === 'XSRF-TOKEN');
      expect(cookie, 'XSRF-TOKEN cookie').toBeTruthy();
      return decodeURIComponent(cookie!.value);
    };
    expect((await carer.get('/api/auth/csrf-cookie')).ok()).toBe(true);
    const login = await carer.post('/api/auth/login', {
      data: { username: 'carer.ali', password: DEMO_PASSWORD, client_site: DEMO_SITE },
      headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
    });
    expect(login.ok(), await login.text()).toBe(true);
    const posted = await carer.post('/api/v1/projects/residents/journal/entries/comments', {
      data: { entry_id: entryId, comment },
      headers: { 'X-XSRF-TOKEN': await xsrf(), Accept: 'application/json' },
    });
    expect(posted.ok(), await posted.text()).toBe(true);
  } finally {
    await carer.dispose();
  }
}

/**
 * A control written by this test into IndexedDB in plain text, shaped like a replica document: if
 * the scan cannot find it, the scan is blind (wrong folder, compressed storage) and proves nothing.
 */
async function writePlainControl(page: Page, control: string): Promise<void> {
  await page.evaluate(async (value) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('e2e-plain-control', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('docs', { keyPath: 'id' });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('docs', 'readwrite');
      tx.objectStore('docs').put({
        id: crypto.randomUUID(),
        type: 'journal',
        latest_comment: { id: crypto.randomUUID(), comment: value, created_at: new Date().toISOString(), creator: { first_name: 'Control', last_name: 'Value' } },
        entry: { id: crypto.randomUUID(), excerpt: 'A short excerpt of an entry, about as long as the real ones.' },
        awaiting_resident_response: true,
      });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, control);
}

test('nothing a young person received is stored in plain text in the browser profile', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
  try {
    const canary = newCanary();
    const control = `CONTROL-${randomBytes(16).toString('hex')}`;
    const { context, page } = await launchProfile(dir);
    try {
      await signInAsJamie(page);
      await waitForWorker(page);
      await expect(page.getByRole('list', { name: 'New replies' })).toBeVisible();
      // Written first, so it has the whole test to reach the disk as the replica's documents do (once,
      // in CI, it was missing from a profile scanned right after it was written).
      await writePlainControl(page, control);

      await staffComment(page, canary);
      // The event stream re-syncs: the canary is now in the (encrypted) replica, and on screen.
      await expect(page.getByRole('list', { name: 'New replies' })).toContainText(canary, { timeout: 15_000 });
      // The replica reads it back after a reload (from disk, not from memory).
      await page.reload();
      await expect(page.getByRole('list', { name: 'New replies' })).toContainText(canary, { timeout: 15_000 });
      // (No free-text write exists yet besides app settings, so nothing of jamie's own is written offline here.)
    } finally {
      await context.close(); // Chromium flushes its stores to the profile
    }

    const files = profileFiles(dir);
    expect(files.length).toBeGreaterThan(0);
    // Controls: the scan does see the cached app shell and IndexedDB's plain values.
    expect(filesContaining(files, 'Hearth').length, 'the precached app shell is found').toBeGreaterThan(0);
    expect(filesContaining(files, control), 'a plain IndexedDB value is found').not.toEqual([]);
    expect(filesContaining(files, canary), 'files holding the canary in plain text').toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('logout leaves no personal data in the page or the profile', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-profile-'));
  try {
    const canary = newCanary();
    const { context, page } = await launchProfile(dir);
    let ownerDatabases: string[] = [];
    try {
      await signInAsJamie(page);
      await waitForWorker(page);
      // The replica has filled: the home's staff (from the encrypted replica) and a fresh reply.
      await expect(page.getByRole('region', { name: 'About you' })).toContainText('Ali Hassan', { timeout: 15_000 });
      await staffComment(page, canary);
      await expect(page.getByRole('list', { name: 'New replies' })).toContainText(canary, { timeout: 15_000 });

      const before = await page.evaluate(async () => ({
        databases: (await indexedDB.databases()).map((d) => d.name ?? ''),
        session: localStorage.getItem('hearth.session'),
      }));
      ownerDatabases = before.databases.filter((name) => /hearth-[0-9a-f]{24}/.test(name));
      // The replica, its key and the outbox of jamie's owner id exist while signed in (so their absence later means something).
      expect(ownerDatabases.some((name) => /-keys$/.test(name)), before.databases.join(', ')).toBe(true);
      expect(ownerDatabases.length, before.databases.join(', ')).toBeGreaterThan(1);
      expect(before.session).not.toBeNull();

      await signOut(page);
      // Deleting a database waits for its other connections (the service worker's) to close.
      await expect
        .poll(() => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((name) => /hearth-[0-9a-f]{24}/.test(name))), {
          timeout: 15_000,
          message: 'owner databases left after logout',
        })
        .toEqual([]);

      const after = await page.evaluate(async () => {
        const names = (await indexedDB.databases()).map((d) => d.name ?? '');
        const activeOwner = names.includes('hearth-device')
          ? await new Promise<unknown>((resolve, reject) => {
              const open = indexedDB.open('hearth-device');
              open.onsuccess = () => {
                const db = open.result;
                if (!db.objectStoreNames.contains('meta')) {
                  db.close();
                  resolve(undefined);
                  return;
                }
                const get = db.transaction('meta').objectStore('meta').get('active-owner');
                get.onsuccess = () => {
                  db.close();
                  resolve(get.result);
                };
                get.onerror = () => reject(get.error);
              };
              open.onerror = () => reject(open.error);
            })
          : undefined;
        const storage: Record<string, string> = {};
        for (let i = 0; i < localStorage.length; i += 1) {
          const key = localStorage.key(i)!;
          storage[key] = localStorage.getItem(key) ?? '';
        }
        return { names, activeOwner, storage, caches: await caches.keys() };
      });
      expect(after.names.filter((name) => /hearth-[0-9a-f]{24}/.test(name)), 'owner databases left after logout').toEqual([]);
      expect(after.names.filter((name) => ownerDatabases.includes(name))).toEqual([]);
      expect(after.activeOwner ?? null).toBeNull();
      expect(Object.keys(after.storage)).not.toContain('hearth.session');
      const stored = JSON.stringify(after.storage);
      for (const personal of ['Jamie', 'Rivers', 'Ali', 'Hassan', 'Willow', canary]) expect(stored).not.toContain(personal);
      expect(after.caches.length).toBeGreaterThan(0);
      expect(after.caches.filter((name) => !name.includes('precache'))).toEqual([]);
    } finally {
      await context.close();
    }

    const files = profileFiles(dir);
    expect(filesContaining(files, 'Hearth').length, 'the precached app shell is found').toBeGreaterThan(0);
    for (const personal of [canary, 'Ali Hassan', 'Jamie Rivers']) {
      expect(filesContaining(files, personal), `files holding "${personal}" in plain text`).toEqual([]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
