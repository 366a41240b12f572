/**
 * h. Lighthouse (issue 13): login, dashboard and journal entries with Lighthouse's mobile defaults
 * (simulated Slow 4G, 4x CPU slowdown), median of 3 per page and metric; the signed-in pages in a
 * warm profile (jamie signed in once in that profile, the replica synced, the service worker in
 * control), the login page cold (Lighthouse resets storage before each run). Beside TBT, the
 * trace's own tasks after the first paint (./trace-tasks.ts), which move less between runs.
 * g. Transferred JS per route: what the browser downloads (Accept-Encoding br, no cache, no service
 * worker) for a load of the route, and what the build's chunk graph says it needs (the budget test's
 * reckoning, tests/build/budgets.test.ts).
 *
 * Standalone too, for before/after runs against another checkout (its own build and server):
 *   tsx scripts/bench/lighthouse.ts [--root <checkout>] [--runs 3] [--no-build] [--only login,dashboard,journal] [--also /calendar,/rewards]
 * Ports: the server on LIGHTHOUSE_PORT (default 8196), Chromium's debugging port on the next one.
 * Chromium is CHROME_PATH (default /usr/bin/chromium), launched through chrome-launcher; nothing is
 * downloaded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import { routeJsBudgets } from '../route-js';
import { tasksAfterFirstPaint, type TasksAfterPaint, type TraceEvent } from './trace-tasks';

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LighthouseOptions {
  /** The checkout to build and serve (default: this one). */
  readonly root?: string;
  readonly runs?: number;
  /** Skip `npm run build` (dist/ is already built). */
  readonly build?: boolean;
  /** Only these pages (login, dashboard, journal); default all. For quick looks, not for the record. */
  readonly only?: readonly string[];
  /** Other signed-in paths to run warm as well (`--also /calendar,/voice/entries`): a look at screens the record leaves out. */
  readonly also?: readonly string[];
  readonly port?: number;
}

interface Metrics {
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  score: number;
}

interface PageRuns {
  url: string;
  profile: 'cold' | 'warm';
  median: Metrics | null;
  runs: (Metrics & { longTasks: unknown[]; layoutShifts: unknown[]; lcpElement: unknown; scriptTransferBytes: number; afterPaint: TasksAfterPaint | null })[];
  /** Medians over the runs of the trace's own tasks after the first paint (./trace-tasks.ts). */
  afterPaint: TasksAfterPaint | null;
  errors: string[];
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) done();
      else fail(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

async function waitForHealth(base: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not answer /api/health');
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
};

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
// The audits' details are loosely typed unions; only a few fields are read, for the record.
type Items = { items?: Record<string, unknown>[] } | undefined;
const items = (lhr: Lhr, audit: string): Record<string, unknown>[] => ((lhr.audits[audit]?.details as Items)?.items ?? []);

function metricsOf(lhr: Lhr, trace: { traceEvents?: TraceEvent[] } | undefined): PageRuns['runs'][number] {
  const value = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
  return {
    lcpMs: Math.round(value('largest-contentful-paint')),
    fcpMs: Math.round(value('first-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    cls: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
    score: lhr.categories.performance?.score ?? Number.NaN,
    // What to look at when a number is off: the long tasks (observed, unthrottled), the shifts and the LCP element.
    longTasks: items(lhr, 'long-tasks').slice(0, 8).map((t) => ({ url: t.url, startTime: t.startTime, duration: t.duration })),
    layoutShifts: items(lhr, 'layout-shifts')
      .slice(0, 8)
      .map((s) => ({ score: s.score, node: (s.node as { selector?: string; snippet?: string } | undefined)?.snippet?.slice(0, 120) })),
    lcpElement: ((items(lhr, 'largest-contentful-paint-element')[0]?.items as Record<string, unknown>[] | undefined)?.[0]?.node as { snippet?: string } | undefined)?.snippet?.slice(0, 160) ?? null,
    scriptTransferBytes: items(lhr, 'network-requests')
      .filter((r) => r.resourceType === 'Script')
      .reduce((n, r) => n + Number(r.transferSize ?? 0), 0),
    afterPaint: trace?.traceEvents ? tasksAfterFirstPaint(trace.traceEvents) : null,
  };
}

async function lighthouseRuns(url: string, port: number, runs: number, warm: boolean): Promise<PageRuns> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Warm: keep the profile's cookies, IndexedDB, service worker and caches between runs.
    disableStorageReset: warm,
  };
  const result: PageRuns = { url, profile: warm ? 'warm' : 'cold', median: null, runs: [], errors: [], afterPaint: null };
  // A run Lighthouse could not record (NO_NAVSTART, now and then the first after the warm-up) is run
  // again, so the median is of `runs` runs; two failures end the page.
  for (let i = 0; result.runs.length < runs && result.errors.length < 2; i++) {
    try {
      const outcome = await lighthouse(url, flags);
      if (!outcome) throw new Error('no result');
      if (outcome.lhr.runtimeError) throw new Error(`${outcome.lhr.runtimeError.code}: ${outcome.lhr.runtimeError.message}`);
      const trace = (outcome.artifacts as { Trace?: { traceEvents?: TraceEvent[] } }).Trace;
      result.runs.push(metricsOf(outcome.lhr, trace));
      // LIGHTHOUSE_DUMP=<dir>: every report in full, to open in a Lighthouse viewer when a number is off.
      if (process.env.LIGHTHOUSE_DUMP) {
        mkdirSync(process.env.LIGHTHOUSE_DUMP, { recursive: true });
        const name = `${new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'login'}-${warm ? 'warm' : 'cold'}-${i}`;
        writeFileSync(join(process.env.LIGHTHOUSE_DUMP, `${name}.json`), JSON.stringify(outcome.lhr));
        if (trace) writeFileSync(join(process.env.LIGHTHOUSE_DUMP, `${name}.trace.json`), JSON.stringify(trace));
      }
    } catch (error) {
      result.errors.push(String(error).slice(0, 300));
    }
  }
  if (result.runs.length) {
    const of = (key: keyof Metrics) => median(result.runs.map((r) => r[key]));
    result.median = { lcpMs: of('lcpMs'), fcpMs: of('fcpMs'), tbtMs: of('tbtMs'), cls: of('cls'), score: of('score') };
    const traced = result.runs.flatMap((r) => (r.afterPaint ? [r.afterPaint] : []));
    if (traced.length) {
      const ofTasks = (key: keyof TasksAfterPaint) => median(traced.map((t) => t[key]));
      result.afterPaint = { longestMs: ofTasks('longestMs'), count: ofTasks('count'), over50At4xMs: ofTasks('over50At4xMs') };
    }
  }
  return result;
}

/** Signs jamie in once in the profile Chromium runs with, and waits for the replica and the worker. */
async function warmUp(base: string, debuggingPort: number): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debuggingPort}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    // Lighthouse's mobile screen: the screens' held shapes are kept per width (src/data/held-layout.ts),
    // and a warm profile is one where this phone has shown them before.
    await page.setViewportSize({ width: 412, height: 823 });
    await page.goto(`${base}/`);
    await page.getByLabel('Username').fill('jamie');
    await page.getByLabel('Password', { exact: true }).fill('hearth-demo-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Hi Jamie' }).waitFor({ state: 'visible' });
    await page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]').waitFor({ state: 'visible' });
    await page.goto(`${base}/journal/entries`);
    await page.locator('ul[aria-label="Journal entries"] article').first().waitFor({ state: 'visible' });
    const until = Date.now() + 60_000;
    while (Date.now() < until && !(await page.evaluate(() => Boolean(navigator.serviceWorker?.controller)))) await page.waitForTimeout(250);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.close();
  } finally {
    // Disconnects; the browser (chrome-launcher's) stays up for Lighthouse.
    await browser.close().catch(() => undefined);
  }
}

/**
 * The JS a route downloads when nothing is cached and no service worker answers: Chromium with the
 * cache off and workers blocked, the login page signed out, the signed-in pages after signing in.
 * Bytes are what went over the wire (brotli here).
 */
async function transferredJs(base: string): Promise<Record<string, { files: number; bytes: number }>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROME_FLAGS.filter((f) => f !== '--headless=new') });
  try {
    const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map<string, string>();
    let bytes = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scripts.set(e.requestId, e.response.url);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (scripts.has(e.requestId)) bytes.set(e.requestId, e.encodedDataLength);
    });
    const measure = async (path: string, ready: () => Promise<void>) => {
      bytes = new Map();
      await page.goto(path);
      await ready();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      return { files: bytes.size, bytes: [...bytes.values()].reduce((n, b) => n + b, 0) };
    };
    const out: Record<string, { files: number; bytes: number }> = {};
    out['/'] = await measure('/', () => page.getByRole('button', { name: 'Sign in' }).waitFor());
    await page.getByLabel('Username').fill('jamie');
    await page.getByLabel('Password', { exact: true }).fill('hearth-demo-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]').waitFor({ state: 'visible' });
    out['/dashboard'] = await measure('/dashboard', () =>
      page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]').waitFor({ state: 'visible' }),
    );
    out['/journal/entries'] = await measure('/journal/entries', () => page.locator('ul[aria-label="Journal entries"] article').first().waitFor({ state: 'visible' }));
    return out;
  } finally {
    await browser.close().catch(() => undefined);
  }
}

export async function lighthouseBench(options: LighthouseOptions = {}) {
  const root = resolve(options.root ?? join(fileURLToPath(import.meta.url), '../../..'));
  const runs = options.runs ?? 3;
  const port = options.port ?? Number(process.env.LIGHTHOUSE_PORT ?? 8196);
  const base = `http://127.0.0.1:${port}`;
  if (options.build !== false) await run('npm', ['run', 'build', '--silent'], root, 600_000);
  // The build's reckoning (brotli bytes of each route's static chunk closure), when the checkout has the manifest.
  const fromBuild = (() => {
    try {
      return existsSync(join(root, 'dist/.vite/manifest.json')) ? routeJsBudgets(join(root, 'dist')) : null;
    } catch {
      return null; // a checkout from before the budgets (no manifest, no marker in routes.tsx)
    }
  })();

  // Another server on the port would be measured instead of this build: refuse.
  if (await fetch(`${base}/api/health`).then(() => true, () => false)) throw new Error(`port ${port} is in use (LIGHTHOUSE_PORT)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-lighthouse-data-'));
  const server = spawn('npx', ['tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: 'dist', NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    detached: true,
  });
  let serverErr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    serverErr = (serverErr + chunk.toString()).slice(-4_000);
  });
  const profile = mkdtempSync(join(tmpdir(), 'hearth-lighthouse-profile-'));
  let chrome: chromeLauncher.LaunchedChrome | null = null;
  try {
    await waitForHealth(base, server, 120_000).catch((error: unknown) => {
      throw new Error(`${String(error)}; ${serverErr}`);
    });
    const want = (page: string) => !options.only || options.only.includes(page);
    const transferred = await transferredJs(base);

    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
      port: port + 1,
      userDataDir: profile,
      logLevel: 'silent',
    });
    // Cold first: Lighthouse clears the origin's storage before each login run (and the profile is fresh).
    const skipped = (url: string): PageRuns => ({ url, profile: 'warm', median: null, runs: [], errors: ['not asked for'], afterPaint: null });
    const login = want('login') ? await lighthouseRuns(`${base}/`, chrome.port, runs, false) : skipped(`${base}/`);
    const also = options.also ?? [];
    if (want('dashboard') || want('journal') || also.length) await warmUp(base, chrome.port);
    const dashboard = want('dashboard') ? await lighthouseRuns(`${base}/dashboard`, chrome.port, runs, true) : skipped(`${base}/dashboard`);
    const journal = want('journal') ? await lighthouseRuns(`${base}/journal/entries`, chrome.port, runs, true) : skipped(`${base}/journal/entries`);
    const others: Record<string, PageRuns> = {};
    for (const path of also) others[path] = await lighthouseRuns(`${base}${path}`, chrome.port, runs, true);
    return { root, runs, pages: { login, dashboard, journal }, also: others, transferredJs: transferred, routeJsFromBuild: fromBuild };
  } finally {
    if (chrome) await chrome.kill();
    if (server.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The table rows `npm run bench` prints for this section. */
export function lighthouseRows(result: Awaited<ReturnType<typeof lighthouseBench>>): [string, string][] {
  const page = (name: string, p: PageRuns): [string, string] => [
    `h. lighthouse ${name} (${p.profile})`,
    p.median
      ? `LCP ${(p.median.lcpMs / 1000).toFixed(2)} s, FCP ${(p.median.fcpMs / 1000).toFixed(2)} s, TBT ${p.median.tbtMs} ms, CLS ${p.median.cls}, score ${p.median.score} (median of ${p.runs.length})` +
        (p.afterPaint ? `; traced after FCP: longest task ${p.afterPaint.longestMs} ms, ${p.afterPaint.count} over 50 ms at 4x adding ${p.afterPaint.over50At4xMs} ms` : '')
      : `FAILED: ${p.errors[0] ?? 'no run'}`.slice(0, 100),
  ];
  // KB = 1,000 bytes, as the budgets (tests/build/budgets.test.ts) and Vite count.
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  return [
    page('login', result.pages.login),
    page('dashboard', result.pages.dashboard),
    page('journal entries', result.pages.journal),
    ...Object.entries(result.also).map(([path, p]) => page(path, p)),
    [
      'i. JS transferred per route',
      Object.entries(result.transferredJs)
        .map(([route, t]) => `${route} ${kb(t.bytes)} (${t.files})`)
        .join(', ') +
        (result.routeJsFromBuild
          ? `; build (br): / ${kb(result.routeJsFromBuild.routes['/']?.br ?? 0)}, /dashboard ${kb(result.routeJsFromBuild.routes['/dashboard']?.br ?? 0)}, /journal/entries ${kb(result.routeJsFromBuild.routes['/journal/entries']?.br ?? 0)}, largest signed-in ${kb(Math.max(...Object.values(result.routeJsFromBuild.routes).filter((v) => v.signedIn).map((v) => v.br)))}, signed-in engine ${kb(result.routeJsFromBuild.signedInEngine.br)}`
          : ''),
    ],
  ];
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  lighthouseBench({
    root: arg('--root'),
    runs: arg('--runs') ? Number(arg('--runs')) : undefined,
    build: !process.argv.includes('--no-build'),
    only: arg('--only')?.split(','),
    also: arg('--also')?.split(','),
  }).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n\n`);
      process.stdout.write(`${lighthouseRows(result).map(([k, v]) => `${k.padEnd(36)}  ${v}`).join('\n')}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
