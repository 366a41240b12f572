/**
 * d. Warm offline start in Chromium: the built PWA served by the real server (loopback only),
 * jamie signed in, then offline reloads timed until the dashboard shows its content.
 * Also the gzip size of the entry chunk and of the JS the dashboard route loads, from dist/.
 * e. (same browser run) with 1,000 journal entries seeded: offline open of /journal/entries, and save → list.
 * Each time ends when the page paints what it waits for, checked in the page every frame (./shown.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { shown } from './shown';

/** BENCH_PORT: where the bench's own server listens (loopback); several checkouts on one machine need their own. */
const PORT = Number(process.env.BENCH_PORT ?? 8199);
if (!Number.isInteger(PORT) || PORT <= 0 || PORT > 65_535) throw new Error(`BENCH_PORT must be a port number, not ${process.env.BENCH_PORT}`);
const BASE = `http://127.0.0.1:${PORT}`;
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Chromium's full version: a persistent context has no Browser object to ask, and the user agent says only the major version. */
export async function chromiumVersion(context: BrowserContext, page: Page): Promise<string> {
  const { product } = await (await context.newCDPSession(page)).send('Browser.getVersion');
  return /Chrome\/([\d.]+)/.exec(product)?.[1] ?? product;
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const gzipBytes = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/** The entry chunk from dist/index.html, and totals over dist's JS. */
export function bundleSizes(root: string) {
  const dist = join(root, 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  // The first-paint script names the modules since issue 13 (data-entry, data-preload); Vite's own tags before.
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1] ?? /data-entry="\/?([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module script in dist/index.html');
  const preloads = [
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map((m) => m[1] as string),
    ...(/data-preload="([^"]*)"/.exec(html)?.[1] ?? '').split(' ').filter(Boolean).map((href) => href.replace(/^\//, '')),
  ];
  const js = listFiles(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  return {
    entry: { file: entry, bytes: statSync(join(dist, entry)).size, gzipBytes: gzipBytes(join(dist, entry)) },
    entryWithPreloads: {
      files: [entry, ...preloads],
      gzipBytes: [entry, ...preloads].reduce((n, f) => n + gzipBytes(join(dist, f)), 0),
    },
    allJs: { files: js.length, gzipBytes: js.reduce((n, f) => n + gzipBytes(f), 0), list: js.map((f) => relative(dist, f)) },
  };
}

async function waitForHealth(timeoutMs: number, server: ChildProcess): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}`);
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not answer /api/health');
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.floor((sorted.length - 1) / 2)] as number) : null;
};

const SEED_ENTRIES = 1_000;
const SEED_CONCURRENCY = 20;

/**
 * e. Journal with 1,000 entries: (1) offline navigation to /journal/entries until the first card
 * is visible; (2) online, pressing "Save entry" on /journal until the new text shows in the list.
 * Entries are seeded through the real API as jamie (the signed-in context's cookies, loopback only).
 */
async function journalBench(context: BrowserContext, page: Page, runs: number) {
  const seedTag = `bench-seed-${Date.now().toString(36)}`;
  const xsrf = async () => decodeURIComponent((await context.cookies(BASE)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
  const token = await xsrf();
  if (!token) throw new Error('no XSRF-TOKEN cookie after sign-in');
  const seedStart = performance.now();
  const seedErrors: string[] = [];
  let seeded = 0;
  for (let batch = 0; batch < SEED_ENTRIES / SEED_CONCURRENCY; batch++) {
    const results = await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async (_, j) => {
        const i = batch * SEED_CONCURRENCY + j;
        // Spread over past days, oldest first, so the list order is stable and nothing is in the future.
        const day = new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
        const response = await context.request.post(`${BASE}/api/v1/projects/residents/journal/entries`, {
          headers: { 'X-XSRF-TOKEN': token, Accept: 'application/json' },
          data: { description: `${seedTag}-${String(i).padStart(4, '0')} a journal entry for the bench`, entry_date: day, entry_time: `${String(8 + (i % 4) * 3).padStart(2, '0')}:00` },
        });
        return response.ok() ? null : `${response.status()} ${(await response.text()).slice(0, 200)}`;
      }),
    );
    for (const r of results) {
      if (r === null) seeded++;
      else if (seedErrors.length < 5) seedErrors.push(r);
    }
    if (seedErrors.length >= 5) throw new Error(`seeding failed: ${seedErrors.join(' | ')}`);
  }
  const seedMs = Math.round(performance.now() - seedStart);

  // Let the replica catch up: the on-device search finds the first and the last seeded entry.
  const catchUpStart = performance.now();
  await page.goto('/journal/entries');
  const search = page.getByLabel('Search your entries');
  const list = page.locator('ul[aria-label="Journal entries"]');
  for (const i of [0, SEED_ENTRIES - 1]) {
    const text = `${seedTag}-${String(i).padStart(4, '0')}`;
    await search.fill(text);
    await list.getByText(text).waitFor({ state: 'visible', timeout: 120_000 });
  }
  await search.fill('');
  await page.waitForLoadState('networkidle').catch(() => undefined);
  const catchUpMs = Math.round(performance.now() - catchUpStart);

  let controlled = false;
  const until = Date.now() + 30_000;
  while (!controlled && Date.now() < until) {
    controlled = await page.evaluate(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined);
    if (!controlled) await page.waitForTimeout(250);
  }

  const CARD = 'ul[aria-label="Journal entries"] article';
  const offlineSamples: number[] = [];
  const offlineErrors: string[] = [];
  await page.goto('/journal');
  await context.setOffline(true);
  try {
    for (let i = 0; i < runs; i++) {
      try {
        const t0 = performance.now();
        await page.goto('/journal/entries', { waitUntil: 'commit' });
        await shown(page, CARD);
        offlineSamples.push(performance.now() - t0);
        await page.goto('/journal', { waitUntil: 'commit' });
      } catch (error) {
        offlineErrors.push(String(error).slice(0, 300));
        if (offlineErrors.length >= 2) break;
      }
    }
  } finally {
    await context.setOffline(false);
  }

  const saveSamples: number[] = [];
  const saveErrors: string[] = [];
  const saveMatches: { run: number; matches: number; html: string }[] = [];
  const saveTag = `bench-save-${Date.now().toString(36)}`;
  for (let i = 0; i < runs; i++) {
    try {
      await page.goto('/journal');
      const text = `${saveTag}-${i} written by the bench`;
      await page.locator('textarea.entry-form__textarea').fill(text);
      const save = page.getByRole('button', { name: 'Save entry' });
      const t0 = performance.now();
      await save.click();
      await page.waitForURL(/\/journal\/entries$/);
      await shown(page, CARD, text);
      saveSamples.push(performance.now() - t0);
      // More than one match right after saving means the list briefly showed the entry twice.
      const saved = page.locator('ul[aria-label="Journal entries"]').getByText(text, { exact: true });
      const count = await saved.count();
      if (count !== 1) saveMatches.push({ run: i, matches: count, html: (await saved.evaluateAll((els) => els.map((el) => el.outerHTML.slice(0, 160)))).join(' | ') });
    } catch (error) {
      saveErrors.push(String(error).slice(0, 300));
      if (saveErrors.length >= 2) break;
    }
  }

  return {
    seeded,
    seedMs,
    replicaCatchUpMs: catchUpMs,
    serviceWorkerControlled: controlled,
    offlineList: { runs: offlineSamples.length, samplesMs: offlineSamples.map(Math.round), medianMs: median(offlineSamples), errors: offlineErrors },
    saveToList: { runs: saveSamples.length, samplesMs: saveSamples.map(Math.round), medianMs: median(saveSamples), errors: saveErrors, duplicateMatches: saveMatches },
  };
}

export async function browserBench(root: string, options: { runs?: number } = {}) {
  const runs = options.runs ?? 5;
  await run('npx', ['vite', 'build', '--logLevel', 'warn'], root, 300_000);
  const sizes = bundleSizes(root);
  const hasServiceWorker = (() => {
    try {
      return statSync(join(root, 'dist', 'sw.js')).isFile();
    } catch {
      return false;
    }
  })();

  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-data-'));
  const server = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: 'dist', NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    detached: true,
  });
  let serverErr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErr = (serverErr + chunk.toString()).slice(-4_000);
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await waitForHealth(90_000, server).catch((error: unknown) => {
      throw new Error(`${String(error)}; ${serverErr}`);
    });
    const context = await browser.newContext({ baseURL: BASE, viewport: { width: 412, height: 915 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);

    const dashboardVisible = async () => {
      await shown(page, 'h1', 'Hi Jamie');
      await shown(page, 'section[aria-labelledby="roster-title"][aria-busy="false"]');
    };

    await page.goto('/');
    await page.getByLabel('Username').fill('jamie');
    await page.getByLabel('Password', { exact: true }).fill('hearth-demo-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await dashboardVisible();

    // The JS the dashboard route loads: every script requested by a fresh online load of it.
    const scripts = new Set<string>();
    const onRequest = (request: { url(): string; resourceType(): string }) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.pathname.endsWith('.js')) scripts.add(url.pathname.replace(/^\//, ''));
    };
    page.on('request', onRequest);
    await page.reload();
    await dashboardVisible();
    page.off('request', onRequest);
    const routeJs = [...scripts].filter((f) => !f.endsWith('sw.js'));
    const dashboardRouteJs = {
      files: routeJs.length,
      gzipBytes: routeJs.reduce((n, f) => {
        try {
          return n + gzipBytes(join(root, 'dist', f));
        } catch {
          return n;
        }
      }, 0),
      list: routeJs,
    };

    let controlled = false;
    if (hasServiceWorker) {
      const until = Date.now() + 30_000;
      while (!controlled && Date.now() < until) {
        controlled = await page.evaluate(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined);
        if (!controlled) await page.waitForTimeout(250);
      }
    }

    const samples: number[] = [];
    const errors: string[] = [];
    await context.setOffline(true);
    try {
      for (let i = 0; i < runs; i++) {
        try {
          const t0 = performance.now();
          await page.reload({ waitUntil: 'commit' });
          await dashboardVisible();
          samples.push(performance.now() - t0);
        } catch (error) {
          errors.push(String(error).slice(0, 300));
          if (errors.length >= 2) break;
        }
      }
    } finally {
      await context.setOffline(false);
    }
    const journal = await journalBench(context, page, runs).catch((error: unknown) => ({ error: String(error).slice(0, 500) }));
    await context.close();
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      serviceWorkerInBuild: hasServiceWorker,
      serviceWorkerControlled: controlled,
      offline: controlled,
      runs: samples.length,
      samplesMs: samples.map((s) => Math.round(s)),
      medianMs: sorted.length ? Math.round(sorted[Math.floor((sorted.length - 1) / 2)] as number) : null,
      errors,
      bundle: { ...sizes, dashboardRouteJs },
      journal,
      note: controlled ? 'offline reload served by the service worker' : 'no service worker control: measured without it (offline reload cannot work)',
    };
  } finally {
    await browser.close().catch(() => undefined);
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
