import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { blobStoreFor, buildApp, type BuildAppOptions } from '../../../server/app';
import { loadConfig, type Config } from '../../../server/config';
import { openDatabase, openTestDatabase, type DatabaseHandle, type DatabaseInfo } from '../../../server/db/database';
import { migrateToLatest } from '../../../server/db/migrate';
import type { Database } from '../../../server/db/schema';
import type { AuthLimits } from '../../../server/lib/auth-limits';
import { deriveKeys } from '../../../server/lib/crypto';
import { seedDemo } from '../../../server/seed/demo';
import { Client } from './client';

export interface TestServer {
  app: FastifyInstance;
  db: Kysely<Database>;
  config: Config;
  /** The database as buildApp was told of it (pass it again to a rebuilt app). */
  database: DatabaseInfo;
  base: string;
  client(): Client;
  close(): Promise<void>;
}

/** A fake built PWA so the static plugin can be tested without `npm run build`. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Hearth</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("install", () => {})');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{}');
  return dir;
}

/**
 * The real server over real HTTP on 127.0.0.1:0, with its own database (PGlite in memory, or a
 * fresh schema when DATABASE_URL is set) holding the demo data.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    limits?: Partial<AuthLimits>;
    imageClassifier?: BuildAppOptions['imageClassifier'];
    /** Sees every statement the database runs (Kysely's log): which queries a request made. */
    onQuery?: (query: CompiledQuery) => void;
    /** Where the server's log lines go (with env LOG_LEVEL; tests are silent by default). */
    logStream?: BuildAppOptions['logStream'];
  } = {},
): Promise<TestServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-data-')),
    STATIC_DIR: fakeDist(),
    ...options.env,
  });
  const onQuery = options.onQuery;
  const handle = await openTestDatabase(onQuery ? { log: (event) => onQuery(event.query) } : {});
  await migrateToLatest(handle.db, handle.schema);
  const database = databaseInfo(handle);
  const files = await blobStoreFor(database, handle.db, config);
  await seedDemo(handle.db, deriveKeys(config.appKey), { files }).finally(() => files.close?.());
  // The coarse per-IP ceiling would trip in a busy test file; brute-force tests lower it again.
  const app = await buildApp({
    config,
    db: handle.db,
    database,
    limits: { authRequestsPerMinute: 100_000, ...options.limits },
    imageClassifier: options.imageClassifier,
    logStream: options.logStream,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    app,
    db: handle.db,
    config,
    database,
    base,
    client: () => new Client(base),
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

/**
 * A second server process, as far as the first can tell: another app on the same PostgreSQL
 * schema with its own connections, its own change feed and its own memory, sharing only the
 * database and APP_KEY (as processes behind one proxy do). PostgreSQL only.
 */
export async function startPeerServer(
  server: TestServer,
  options: { limits?: Partial<AuthLimits>; imageClassifier?: BuildAppOptions['imageClassifier'] } = {},
): Promise<TestServer> {
  if (server.database.kind !== 'postgres') throw new Error('a peer server needs PostgreSQL');
  const { url, schema } = server.database;
  const handle = await openDatabase({ kind: 'postgres', url, ...(schema ? { schema } : {}) });
  // Its own disk, as on another machine: only the database is shared.
  const config = { ...server.config, dataDir: mkdtempSync(join(tmpdir(), 'hearth-peer-')) };
  const app = await buildApp({
    config,
    db: handle.db,
    database: server.database,
    limits: { authRequestsPerMinute: 100_000, ...options.limits },
    imageClassifier: options.imageClassifier,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    app,
    db: handle.db,
    config,
    database: server.database,
    base,
    client: () => new Client(base),
    async close() {
      await app.close();
      await handle.close();
    },
  };
}

/**
 * How many uploaded files are stored, of one tenant or all: on disk beside the embedded database,
 * in the database on PostgreSQL (app.ts blobStoreFor). Half-written temporary files do not count.
 * With S3_BUCKET the files are in the bucket: list it (support/s3.ts).
 */
export async function storedFileCount(server: TestServer, tenantId?: string): Promise<number> {
  if (server.config.s3) throw new Error('storedFileCount: the files are in the S3 bucket; list it instead');
  if (server.database.kind === 'postgres') {
    let query = server.db.selectFrom('stored_files').select((eb) => eb.fn.countAll<string>().as('n'));
    if (tenantId) query = query.where('tenant_id', '=', tenantId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }
  const root = join(server.config.dataDir, 'files', ...(tenantId ? [tenantId] : []));
  if (!existsSync(root)) return 0;
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && !d.name.startsWith('.')).length;
}

/** What buildApp needs to know of a test database (PostgreSQL: the URL and the file's schema). */
export function databaseInfo(handle: DatabaseHandle): DatabaseInfo {
  return handle.kind === 'postgres' ? { kind: 'postgres', url: handle.url!, ...(handle.schema ? { schema: handle.schema } : {}) } : { kind: 'pglite' };
}

export const totpFor = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** A TOTP code for the current step plus `offset` steps. */
export const totpCode = (secret: string, offset = 0): string =>
  totpFor(secret).generate({ timestamp: Date.now() + offset * 30_000 });

/** Waits while the current 30 s step is about to end, so a code and its check share a step. */
export async function awayFromStepBoundary(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 27_000) await new Promise((r) => setTimeout(r, 30_000 - intoStep + 200));
}
