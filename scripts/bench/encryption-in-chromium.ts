/**
 * b, in Chromium: encrypted vs unencrypted insert and query of 1,000 documents on the browser's
 * IndexedDB and WebCrypto. The Node run of the same benchmark (data-sections.ts) stores in
 * fake-indexeddb, a JavaScript model of IndexedDB, and pays Node's WebCrypto bindings (about 13 µs
 * of JavaScript per call); the app pays neither. Both are reported, from the same code.
 *
 * The page is ./encryption-page.ts, built by Vite as in production (no RxDB dev-mode) and served
 * from a throwaway loopback server: no app, no API.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import type { BenchResult } from './bench-encryption';
import type * as EncryptionPage from './encryption-page';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const BENCH_FILE = 'bench.js';

async function buildPage(root: string, outDir: string): Promise<void> {
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    resolve: { alias: { '@': join(root, 'src') } },
    define: { 'import.meta.env.DEV': 'false', 'import.meta.env.PROD': 'true', 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      lib: { entry: join(root, 'scripts/bench/encryption-page.ts'), formats: ['es'], fileName: () => BENCH_FILE },
    },
  });
}

/** Serves `dir` on a free loopback port: a blank page at `/`, the built modules beside it. */
function serve(dir: string): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>bench</title>');
      return;
    }
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir) || extname(file) !== '.js') {
      response.writeHead(404).end();
      return;
    }
    try {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      resolve({ server, base: `http://127.0.0.1:${address.port}` });
    });
  });
}

export async function encryptionInChromiumBench(root: string, options: { documents?: number; repeats?: number } = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'hearth-bench-encryption-'));
  const { server, base } = await buildPage(root, outDir).then(() => serve(outDir));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const result: BenchResult = await page.evaluate(
      async ({ file, documents, repeats }) => {
        const bench = (await import(/* @vite-ignore */ `/${file}`)) as typeof EncryptionPage;
        return bench.run(documents, repeats);
      },
      { file: BENCH_FILE, documents: options.documents ?? 1_000, repeats: options.repeats ?? 3 },
    );
    const round = (n: number, digits = 1) => Number(n.toFixed(digits));
    const ms = (t: BenchResult['plain']) => ({ insertMs: round(t.insertMs), queryMs: round(t.queryMs), queryAfterReopenMs: round(t.coldQueryMs) });
    return {
      documents: result.documents,
      plain: ms(result.plain),
      encrypted: ms(result.encrypted),
      ratio: {
        insert: round(result.ratio.insert, 2),
        query: round(result.ratio.query, 2),
        queryAfterReopen: round(result.ratio.coldQuery, 2),
        total: round(result.ratio.total, 2),
      },
      method: `best of ${options.repeats ?? 3} alternating runs after a warm-up, Chromium ${browser.version()}, IndexedDB`,
    };
  } finally {
    await browser.close().catch(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    rmSync(outDir, { recursive: true, force: true });
  }
}
