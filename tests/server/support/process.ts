import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../server/db/database';

/**
 * The real server as `npm start` runs it (server/main.ts in its own process, without the build),
 * for tests that need processes: several workers, a kill -9. On PostgreSQL each such test gets a
 * schema of its own, named in DATABASE_URL (`options=-c search_path=...`) as an operator could.
 */

/** A whole server start (tsx, migrations, the demo seed) on a busy machine. */
export const SERVER_START_MS = 120_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A fake built PWA, enough for the static plugin. */
export function fakeStaticDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Hearth</title><div id="root"></div>');
  return dir;
}

export function withoutDatabaseUrl(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = process.env;
  return rest;
}

/** A fresh schema on DATABASE_URL's server and the URL that puts it first in the search path; `drop` removes it. */
export async function schemaOnPostgres(): Promise<{ schema: string; url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL!;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const handle = await openDatabase({ kind: 'postgres', url: base, schema, dropSchemaOnClose: false });
  await handle.close();
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    schema,
    url,
    async drop() {
      const admin = await openDatabase({ kind: 'postgres', url: base, schema, dropSchemaOnClose: true });
      await admin.close();
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/** Starts server/main.ts with `env` over the test's environment, and waits until it answers. */
export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const base = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + SERVER_START_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    const healthy = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
    if (healthy) return { child, base, output: () => output, exited };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}
