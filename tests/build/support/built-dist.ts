import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../../..');
export const dist = join(root, 'dist');
const manifest = join(dist, '.vite/manifest.json');

/** What the build reads: a change to any of it makes dist/ stale. */
const SOURCES = ['src', 'public', 'sw', 'index.html', 'vite.config.ts', 'scripts/prerender-login.ts', 'scripts/chunk-groups.ts', 'scripts/precompress.ts', 'package-lock.json'];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/**
 * The environment a newcomer's `npm run build` has: without what vitest sets for the code it tests
 * (NODE_ENV=test and `import.meta.env` copied into process.env), which made a build from here differ
 * from CI's (no service worker registration chunk, a login route counted at 150 KB).
 */
const VITEST_ENV = /^(?:VITEST.*|VITE_.*|NODE_ENV|TEST|MODE|DEV|PROD|SSR|BASE_URL)$/;
export function buildEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !VITEST_ENV.test(name)));
}

/**
 * The built PWA of this checkout. `npm test` builds before the unit tests (package.json), so this
 * reads that dist/; run alone (`npx vitest run tests/build`), it builds once when dist/ is missing
 * or older than the sources.
 */
export function ensureBuilt(): string {
  const stale = !existsSync(manifest) || SOURCES.some((source) => existsSync(join(root, source)) && newest(join(root, source)) > statSync(manifest).mtimeMs);
  if (stale) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, env: buildEnv(), encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr.slice(-2000)}`);
  }
  return dist;
}
