/**
 * Deterministic budgets of issue 13, on the built PWA (dist/, tests/build/support/built-dist.ts):
 * JavaScript per route from Vite's manifest (scripts/route-js.ts says what a route's JS is), the
 * precompressed copies of every compressible file, and what the real server sends a browser that
 * accepts brotli or gzip. docs/decisions.md "Page speed (issue 13)".
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOAD_ORDER, PAGES } from '../../scripts/chunk-groups';
import { EVERY_START, engineJs, manifestKey, readManifest, routeJs, routePages, SIGNED_IN_ENGINE, SIGNED_IN_SHELL, staticClosure, type RouteJs } from '../../scripts/route-js';
import { startTestServer, type TestServer } from '../server/support/server';
import { ensureBuilt, root } from './support/built-dist';

/** Budgets in bytes of brotli (KB = 1,000 bytes, as Vite reports sizes). */
const LOGIN_BUDGET = 110_000;
const SIGNED_IN_ROUTE_BUDGET = 220_000;
/** Our own (the issue names none): the replica's engine and the outbox's side, once per signed-in session. */
const SIGNED_IN_ENGINE_BUDGET = 110_000;
/**
 * Ours too: the files a start of the two signed-in screens fetches, its page with the shell
 * and the engine (each is a request and a `modulepreload` the main thread pays for): 44 and 54 before
 * scripts/chunk-groups.ts, 19 and 29 with it (in the browser, with the replication's: 66 and 74, then 43 and 50).
 */
const SIGNED_IN_START_FILES = 35;
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.webmanifest', '.json', '.txt']);
const MIN_COMPRESSED = 1024;
const BUILD_TIMEOUT_MS = 600_000;

let dist = '';
let routes: RouteJs[] = [];
const routesSource = readFileSync(join(root, 'src/app/routes.tsx'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(() => {
  dist = ensureBuilt();
  routes = routeJs(dist, routesSource);
}, BUILD_TIMEOUT_MS);

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const over = (list: RouteJs[], budget: number) => list.filter((r) => r.br > budget).map((r) => `${r.path} (${r.module}): ${kb(r.br)} in ${r.files.length} files`);

describe('JavaScript per route (brotli, what the server sends)', () => {
  it('reckons every page of routes.tsx and finds the start modules in the build', () => {
    const pages = routePages(routesSource);
    const lazyPages = [...routesSource.matchAll(/import\('@\/[^']+'\)/g)].length;
    expect(pages).toHaveLength(lazyPages);
    expect(pages.find((p) => p.path === '/')).toMatchObject({ module: 'src/features/auth/components/login-page.tsx', signedIn: false });
    expect(pages.find((p) => p.path === '/dashboard')?.signedIn).toBe(true);
    expect(pages.find((p) => p.path === '/journal/entries')?.signedIn).toBe(true);
    const manifest = readManifest(dist);
    for (const name of [...EVERY_START, ...SIGNED_IN_SHELL, ...SIGNED_IN_ENGINE]) expect(manifestKey(manifest, name), name).not.toBeNull();
  });

  it(`the login screen: at most ${kb(LOGIN_BUDGET)}`, () => {
    const login = routes.find((r) => r.path === '/' && r.module.endsWith('login-page.tsx'));
    expect(login).toBeDefined();
    expect(over([login!], LOGIN_BUDGET)).toEqual([]);
    // None of it is zod, the replica's RxDB or the outbox (they load at sign-in or on the first touch).
    const manifest = readManifest(dist);
    const heavy = ['lifecycle', 'src/app/start-outbox-side.ts'].map((name) => manifest[manifestKey(manifest, name) ?? '']?.file);
    for (const file of heavy) expect(login!.files).not.toContain(file);
    // Nor any chunk of the signed-in start (scripts/chunk-groups.ts).
    const startChunks = LOAD_ORDER.map(([name]) => name).filter((name) => name !== PAGES);
    const fileNames = login!.files.map((f) => f.replace(/^assets\//, ''));
    for (const name of startChunks) expect(fileNames.filter((f) => f.startsWith(`${name}-`)), name).toEqual([]);
    expect(login!.files.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n')).not.toMatch(/ZodError|zod_globalConfig/);
  });

  it(`every signed-in page with the signed-in shell: at most ${kb(SIGNED_IN_ROUTE_BUDGET)}`, () => {
    const signedIn = routes.filter((r) => r.signedIn);
    expect(signedIn.length).toBeGreaterThan(20);
    expect(over(signedIn, SIGNED_IN_ROUTE_BUDGET)).toEqual([]);
  });

  it(`a start of the dashboard or the journal entries fetches at most ${SIGNED_IN_START_FILES} files of JavaScript`, () => {
    const engine = engineJs(dist).files;
    for (const path of ['/dashboard', '/journal/entries']) {
      const page = routes.find((r) => r.path === path)!;
      const files = new Set([...page.files, ...engine]);
      expect(files.size, `${path}: ${[...files].join(' ')}`).toBeLessThanOrEqual(SIGNED_IN_START_FILES);
    }
  });

  it('no two chunks import each other, directly or through others', () => {
    const manifest = readManifest(dist);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (key: string, path: string[]) => {
      if (state.get(key) === 'done') return;
      if (state.get(key) === 'open') return void cycles.push([...path.slice(path.indexOf(key)), key].map((k) => manifest[k]?.file).join(' -> '));
      state.set(key, 'open');
      for (const next of manifest[key]?.imports ?? []) visit(next, [...path, key]);
      state.set(key, 'done');
    };
    for (const key of Object.keys(manifest)) visit(key, []);
    expect(Object.keys(manifest).length).toBeGreaterThan(20);
    expect(cycles).toEqual([]);
  });

  it("a signed-in start's first-paint script preloads the shell's and the engine's chunks with the entry, and nothing else", () => {
    const manifest = readManifest(dist);
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const named = (/data-signed-in-preload="([^"]*)"/.exec(html)?.[1] ?? '').split(' ').filter(Boolean);
    const keys = [...SIGNED_IN_SHELL, ...SIGNED_IN_ENGINE].map((module) => manifestKey(manifest, module)!);
    const entry = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    const inEntry = new Set(staticClosure(manifest, entry));
    const expected = staticClosure(manifest, keys).filter((file) => !inEntry.has(file) && file.endsWith('.js'));
    expect(named.map((href) => href.replace(/^\//, '')).sort()).toEqual(expected.sort());
    // The pulls' code loads after the first screen (src/data/replication/start-when.ts): never with it.
    const replication = manifest[manifestKey(manifest, 'src/data/replication/controller.ts')!]!.file;
    expect(named).not.toContain(`/${replication}`);
  });

  // RxDB split over several chunks (a page reaching a module that imports it) fails every replica's
  // opening in the browser ("Class extends value does not have valid prototype property undefined"):
  // stop 40's summary and stop 45's file sweep did, and only an end-to-end run showed it.
  it("RxDB's core is in one chunk, the replica's", () => {
    const manifest = readManifest(dist);
    const replica = staticClosure(manifest, [manifestKey(manifest, 'src/data/replica/lifecycle.ts')!]);
    const withRxdb = filesUnder(join(dist, 'assets'))
      .filter((path) => path.endsWith('.js') && readFileSync(path, 'utf8').includes('deepFreezeWhenDevMode'))
      .map((path) => relative(dist, path));
    expect(withRxdb).toHaveLength(1);
    expect(replica).toContain(withRxdb[0]);
  });

  it(`the signed-in engine (replica and outbox), beyond the entry: at most ${kb(SIGNED_IN_ENGINE_BUDGET)}`, () => {
    const engine = engineJs(dist);
    expect(engine.files.length).toBeGreaterThan(0);
    expect(engine.br, `${kb(engine.br)} in ${engine.files.length} files`).toBeLessThanOrEqual(SIGNED_IN_ENGINE_BUDGET);
  });
});

describe('the service worker (dist/sw.js)', () => {
  // registerSW registers it as a classic script: an `import`, `export` or `import.meta` in it (Vite's
  // preload helper comes with any dynamic import the worker's code makes, even inlined) fails its
  // evaluation, and the app silently loses its offline shell, its outbox replay and its pushes.
  it('parses as a classic script', () => {
    const source = readFileSync(join(dist, 'sw.js'), 'utf8');
    expect(source.length).toBeGreaterThan(10_000);
    expect(() => new Script(source, { filename: 'sw.js' })).not.toThrow();
    expect(() => new Script('const x = import.meta.url;')).toThrow(SyntaxError);
  });
});

describe('precompressed copies (scripts/precompress.ts)', () => {
  it('every compressible file of 1 KiB or more has a .br and a .gz, smaller, that decode to it', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const path of filesUnder(dist)) {
      if (!COMPRESSIBLE.has(extname(path)) || statSync(path).size < MIN_COMPRESSED) continue;
      checked += 1;
      const original = readFileSync(path);
      for (const [suffix, decode] of [['.br', brotliDecompressSync], ['.gz', gunzipSync]] as const) {
        if (!existsSync(path + suffix)) {
          missing.push(relative(dist, path + suffix));
          continue;
        }
        const copy = readFileSync(path + suffix);
        expect(copy.length, relative(dist, path + suffix)).toBeLessThan(original.length);
        expect(decode(copy).equals(original), relative(dist, path + suffix)).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('what the server sends from the built dist/', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { STATIC_DIR: dist } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** node:http, not fetch: fetch asks for gzip itself and decodes, hiding what is looked at here. */
  const get = (path: string, acceptEncoding: string, accept = '*/*'): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(new URL(path, server.base), { headers: { 'accept-encoding': acceptEncoding, accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it('no JavaScript over 1 KiB goes uncompressed to a browser that accepts brotli or gzip', async () => {
    const scripts = filesUnder(dist).filter((path) => /\.m?js$/.test(path));
    expect(scripts.length).toBeGreaterThan(50);
    const uncompressed: string[] = [];
    for (const path of scripts) {
      const url = `/${relative(dist, path).replace(/\\/g, '/')}`;
      for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
        const res = await get(url, accept);
        expect(res.status, url).toBe(200);
        if (res.headers['content-encoding'] !== encoding && res.body.length > MIN_COMPRESSED) uncompressed.push(`${url} (${accept}): ${res.body.length} B`);
      }
    }
    expect(uncompressed).toEqual([]);
  });

  it('the shell comes compressed at / and at a signed-in address, and the CSP allows its first-paint script by hash only', async () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const inline = /<script id="first-paint"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(inline).toBeTruthy();
    const hash = `'sha256-${createHash('sha256').update(inline!, 'utf8').digest('base64')}'`;
    for (const path of ['/', '/dashboard']) {
      const res = await get(path, 'gzip, deflate, br', 'text/html,application/xhtml+xml');
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(res.body).toString('utf8'), path).toBe(html);
      const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
      expect(scriptSrc.split(' ').sort(), path).toEqual(["'self'", hash].sort());
    }
  });
});
