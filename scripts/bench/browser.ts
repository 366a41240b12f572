/**
 * d. Warm offline start in Chromium: the built PWA served by the real server (loopback only),
 * jamie signed in, then offline reloads timed until the dashboard shows its content.
 * Also the gzip size of the entry chunk and of the JS the dashboard route loads, from dist/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const PORT = 8199;
const BASE = `http://127.0.0.1:${PORT}`;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('no module script in dist/index.html');
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+)"/g)].map((m) => m[1] as string);
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

    const heading = page.getByRole('heading', { level: 1 });
    const roster = page.locator('section[aria-labelledby="roster-title"][aria-busy="false"]');
    const dashboardVisible = async () => {
      await heading.filter({ hasText: 'Hi Jamie' }).waitFor({ state: 'visible' });
      await roster.waitFor({ state: 'visible' });
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
