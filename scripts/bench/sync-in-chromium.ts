/**
 * a, in Chromium: the initial sync of 5,000 calendar instances into a fresh encrypted replica in
 * the browser (its IndexedDB and WebCrypto), from the real server running in this process. The
 * Node run (data-sections.ts) measures the same code on fake-indexeddb with the server on the same
 * thread; the app runs here. The page (./sync-page.ts, built by ./bench-page.ts) is the server's
 * static directory, so its requests are same-origin with the session cookie, as the app's are.
 *
 * Chromium runs with a profile directory (stop 38), so its IndexedDB is on disk as on a device and as
 * in the Lighthouse section. A Playwright context of its own is off the record, its IndexedDB in
 * memory: there the same code fell, run by run, into a fast mode or a slow one (each page's puts
 * slower than the last), 1,351-1,878 ms against 1,177-1,231 ms on disk, alternating in one run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startTestServer } from '../../tests/server/support/server';
import { BENCH_MODULE, buildBenchPage } from './bench-page';
import { CHROMIUM_ARGS, chromiumVersion } from './browser';
import { seedCalendarInstances } from './seed-calendar';
import { syncReport } from './sync-report';
import type * as SyncPage from './sync-page';

export async function syncInChromiumBench(root: string, options: { documents?: number; timeoutMs?: number } = {}) {
  const documents = options.documents ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const outDir = mkdtempSync(join(tmpdir(), 'hearth-bench-sync-'));
  await buildBenchPage(root, 'scripts/bench/sync-page.ts', outDir);
  const server = await startTestServer({ env: { STATIC_DIR: outDir } });
  const profile = mkdtempSync(join(tmpdir(), 'hearth-bench-sync-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, baseURL: server.base });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    // Signed in as the app signs in: the CSRF cookie, then the login with its token.
    await page.request.get('/api/auth/csrf-cookie');
    const token = decodeURIComponent((await context.cookies(server.base)).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '');
    const login = await page.request.post('/api/auth/login', {
      headers: { 'X-XSRF-TOKEN': token, Accept: 'application/json' },
      data: { username: 'jamie', password: 'hearth-demo-1', client_site: 'demo' },
    });
    if (!login.ok()) throw new Error(`login answered ${login.status()}`);
    const user = (await (await page.request.get('/api/v1/auth/user', { headers: { Accept: 'application/json' } })).json()) as { user?: { resident?: { id?: string } } };
    const residentId = user.user?.resident?.id;
    if (!residentId) throw new Error('jamie has no resident record');
    await seedCalendarInstances(server, residentId, documents);

    const result = await page.evaluate(
      async ({ module, documents, timeoutMs }) => {
        const bench = (await import(/* @vite-ignore */ module)) as typeof SyncPage;
        return bench.run(documents, timeoutMs);
      },
      { module: BENCH_MODULE, documents, timeoutMs },
    );
    const version = await chromiumVersion(context, page);
    return { ...syncReport(documents, result), method: `Chromium ${version}, IndexedDB on disk (a profile directory); the server in the bench's process (PGlite)` };
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
