/**
 * The JS each route of the PWA needs, reckoned from the build (issue 13, deterministic budgets).
 * Vite's manifest (dist/.vite/manifest.json) gives every chunk's static imports. A route's JS is the
 * static closure of index.html's entry, of what every start loads (EVERY_START), of the page's lazy
 * module and, for a signed-in page, of the signed-in shell the router loads with it (SIGNED_IN_SHELL):
 * what the router and the start load for that address. The data engine a signed-in session loads
 * once, whatever the route (the replica's RxDB and the outbox's side: SIGNED_IN_ENGINE), is reckoned
 * on its own (`engineJs`), less what the entry already has. Bytes are what the server sends to a
 * browser that accepts brotli (the `.br` copy, or the file when it has none: under 1 KiB), and to
 * one that accepts only gzip.
 *
 * Used by tests/build/budgets.test.ts (the budgets) and scripts/bench/lighthouse.ts (the report,
 * beside what the browser really downloads). docs/decisions.md "Page speed (issue 13)".
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What every start loads besides the entry and the page: the service worker's registration
 * (src/app/shell/service-worker.ts). Manifest keys, or chunk names for chunks without a source key.
 */
export const EVERY_START = ['virtual_pwa-register', 'workbox-window.prod.es5'] as const;

/** What a signed-in page loads with it: the signed-in shell (src/app/routes.tsx) and style (src/app/app-providers.tsx). */
export const SIGNED_IN_SHELL = ['src/app/layouts/signed-in-shell.tsx', 'src/app/shell/signed-in-style-sync.tsx'] as const;

/**
 * The data engine a signed-in session loads once, before its screens can show data: the outbox's
 * side (src/app/start-data.ts) and the replica (RxDB: src/data/replica/follow-session.ts). Not
 * counted: what loads once the replica is open (its replication, src/data/replica/lifecycle.ts) or
 * when asked for (the toasts); the bench measures all of it in the browser.
 */
export const SIGNED_IN_ENGINE = ['src/app/start-outbox-side.ts', 'lifecycle'] as const;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface RoutePage {
  /** The route's path as written in routes.tsx ('/' for the index route). */
  readonly path: string;
  /** The page module, as the manifest names it (src/...). */
  readonly module: string;
  readonly signedIn: boolean;
}

/**
 * The pages of src/app/routes.tsx: each `import('@/…')` with the `path` (or `index: true`) written
 * before it; those after the signed-in shell's marker (`SIGNED_IN_SHELL`) are signed in.
 */
export function routePages(routesSource: string): RoutePage[] {
  const marker = routesSource.indexOf('SIGNED_IN_SHELL');
  if (marker < 0) throw new Error('routes.tsx has no SIGNED_IN_SHELL marker');
  const pages: RoutePage[] = [];
  // A `path` (or `index: true`) and the first lazy import after it, with no other route's path between.
  const pattern = /(?:path:\s*'([^']*)'|index:\s*true)(?:(?!path:|index:)[\s\S])*?import\('@\/([^']+)'\)/g;
  for (const match of routesSource.matchAll(pattern)) {
    const module = `src/${match[2]}.tsx`;
    if (module.includes('layouts/')) continue;
    const signedIn = (match.index ?? 0) > marker;
    const path = match[1] === undefined ? '/' : `/${match[1]}`;
    pages.push({ path, module, signedIn });
  }
  return pages;
}

/** The manifest key of a module key or a chunk name; null when the build has no such chunk. */
export function manifestKey(manifest: Manifest, keyOrName: string): string | null {
  if (keyOrName in manifest) return keyOrName;
  return Object.keys(manifest).find((key) => manifest[key]?.name === keyOrName) ?? null;
}

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The files of the static closure of these manifest keys (JS only). */
export function staticClosure(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the manifest: ${key}`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return [...files].sort();
}

const size = (path: string): number => statSync(path).size;

/** Bytes sent for one file of dist/ to a browser accepting `encoding` (the copy if there is one, else the file). */
export function servedBytes(dist: string, file: string, encoding: 'br' | 'gz' | 'identity'): number {
  const path = join(dist, file);
  if (encoding !== 'identity' && existsSync(`${path}.${encoding}`)) return size(`${path}.${encoding}`);
  return size(path);
}

export interface RouteJs extends RoutePage, Bytes {}

function entryKey(manifest: Manifest): string {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry && key.endsWith('index.html'));
  if (!entry) throw new Error('no index.html entry in the manifest');
  return entry;
}

const keysOf = (manifest: Manifest, list: readonly string[]): string[] =>
  list.map((name) => manifestKey(manifest, name)).filter((key): key is string => key !== null);

export interface Bytes {
  readonly files: string[];
  readonly raw: number;
  readonly br: number;
  readonly gz: number;
}

function bytes(dist: string, files: string[]): Bytes {
  const sum = (encoding: 'br' | 'gz' | 'identity') => files.reduce((n, file) => n + servedBytes(dist, file, encoding), 0);
  return { files, raw: sum('identity'), br: sum('br'), gz: sum('gz') };
}

export function routeJs(dist: string, routesSource: string): RouteJs[] {
  const manifest = readManifest(dist);
  const start = [entryKey(manifest), ...keysOf(manifest, EVERY_START)];
  const shell = keysOf(manifest, SIGNED_IN_SHELL);
  return routePages(routesSource).map((page) => ({ ...page, ...bytes(dist, staticClosure(manifest, [...start, page.module, ...(page.signedIn ? shell : [])])) }));
}

/** The signed-in engine's JS beyond what the entry has (every signed-in route needs it once). */
export function engineJs(dist: string): Bytes {
  const manifest = readManifest(dist);
  const inEntry = new Set(staticClosure(manifest, [entryKey(manifest)]));
  return bytes(dist, staticClosure(manifest, keysOf(manifest, SIGNED_IN_ENGINE)).filter((file) => !inEntry.has(file)));
}

/** The report form (bench): bytes per route path. */
export function routeJsBudgets(dist: string, routesFile = join(dist, '../src/app/routes.tsx')) {
  const routes: Record<string, { signedIn: boolean; files: number; raw: number; br: number; gz: number }> = {};
  for (const r of routeJs(dist, readFileSync(routesFile, 'utf8'))) {
    // Nested paths are written relative in routes.tsx ('/', 'verify'): the page's file names the rest.
    const key = r.path in routes ? `${r.path} (${r.module.split('/').pop()})` : r.path;
    routes[key] = { signedIn: r.signedIn, files: r.files.length, raw: r.raw, br: r.br, gz: r.gz };
  }
  const engine = engineJs(dist);
  return { routes, signedInEngine: { files: engine.files.length, raw: engine.raw, br: engine.br, gz: engine.gz } };
}
