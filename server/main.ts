import cluster, { type Worker } from 'node:cluster';
import { FileStore } from './lib/file-store';
import { blobStoreFor, buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { databaseOptionsFor, openDatabase, withStartupLock, type DatabaseHandle, type DatabaseInfo } from './db/database';
import { migrateToLatest } from './db/migrate';
import { deriveKeys } from './lib/crypto';
import { releaseAbandonedClaims } from './plugins/idempotency';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_RECOVERY_CODES, DEMO_TOTP_SECRET, seedDemo } from './seed/demo';

/**
 * The only entry point: config, database, migrations, seed, listen, and a clean shutdown.
 *
 * With WORKERS=n (n > 1, PostgreSQL only; config.ts refuses it on the embedded database) this
 * process is the primary of a node:cluster: it migrates and seeds once, then starts n worker
 * processes that share PORT (the primary hands out connections) and serve; a worker that dies is
 * started again. SIGTERM or SIGINT stops them all gracefully: each closes its event streams,
 * finishes the requests it has, and closes its database connections; after SHUTDOWN_MS the
 * primary kills what is left. With WORKERS=1 (the default) the single process does everything.
 */
const SHUTDOWN_MS = 30_000;
/** A worker that dies is restarted; this many deaths within a minute means something is wrong: stop. */
const MAX_RESTARTS_PER_MINUTE = 5;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const infoOf = (database: DatabaseHandle): DatabaseInfo =>
  database.kind === 'postgres' ? { kind: 'postgres', url: database.url!, ...(database.schema ? { schema: database.schema } : {}) } : { kind: 'pglite' };

/** Once per start, before anything serves: leftovers, migrations, abandoned claims, the demo seed. */
async function prepare(config: Config): Promise<DatabaseHandle> {
  const database = await openDatabase(databaseOptionsFor(config));
  const files = await blobStoreFor(database, database.db, config);
  // Only the disk store leaves half-written files: the database's writes are transactions, S3's puts atomic.
  if (files instanceof FileStore) {
    const leftovers = await files.removeLeftovers();
    if (leftovers > 0) console.warn(`Removed ${leftovers} half-written upload(s) left by an earlier crash.`);
  }
  // The app makes its own store (app.ts): this one lets go of its connections (S3) once the seed is done.
  await withStartupLock(database, async () => {
    await migrateToLatest(database.db, database.schema);
    // The embedded database has one process, this one: a claim without an answer was cut off by a crash.
    if (database.kind === 'pglite') await releaseAbandonedClaims(database.db);
    if (config.seedDemo) await seedDemo(database.db, deriveKeys(config.appKey), { files });
  }).finally(() => files.close?.());
  return database;
}

function banner(config: Config, database: Pick<DatabaseHandle, 'kind'>, port: number): string {
  // Under `npm run dev` the page is Vite's (scripts/dev.ts says which port); this process is the API behind it.
  const pagePort = Number(process.env.HEARTH_DEV_PAGE_PORT) || port;
  const lines = [`${config.productName} is running at http://localhost:${pagePort}/`];
  if (pagePort !== port) lines.push(`(development: Vite serves the page on ${pagePort} and passes /api to this server on ${port})`);
  if (config.host !== '127.0.0.1' && config.host !== 'localhost') lines.push(`(listening on ${config.host}:${port})`);
  lines.push(`Database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pgdata` : 'PostgreSQL (DATABASE_URL)'}`);
  if (config.s3) lines.push(`Uploaded files: S3 bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''} (S3_BUCKET)`);
  if (config.workers > 1) lines.push(`Processes: ${config.workers} (WORKERS)`);
  if (config.seedDemo) {
    lines.push('', `Demo sign-ins (password ${DEMO_PASSWORD}):`);
    for (const account of DEMO_ACCOUNTS) lines.push(`  site ${account.site.padEnd(10)} ${account.username.padEnd(10)} ${account.note}`);
    lines.push(`  Riley's authenticator secret: ${DEMO_TOTP_SECRET}`);
    lines.push(`  Riley's recovery codes (each works once): ${DEMO_RECOVERY_CODES.join(' ')}`);
  }
  return lines.join('\n');
}

/** Builds the app on an open database and listens; SIGINT/SIGTERM close it and exit. */
async function serve(config: Config, database: DatabaseHandle): Promise<number> {
  const app = await buildApp({ config, db: database.db, database: infoOf(database) });
  await app.listen({ port: config.port, host: config.host });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A worker whose primary is gone (killed) stops too, rather than serve on alone.
  if (cluster.isWorker) process.on('disconnect', () => void shutdown('primary gone'));
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}

/** The primary of WORKERS=n: prepares once, then starts, watches and stops the workers. */
async function primary(config: Config): Promise<void> {
  const database = await prepare(config);
  const kind = database.kind;
  await database.close();

  let stopping = false;
  const deaths: number[] = [];
  let announced = false;
  const start = (): Worker => cluster.fork();
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    console.log(banner(config, { kind }, address.port));
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0]! < now - 60_000) deaths.shift();
    if (deaths.length > MAX_RESTARTS_PER_MINUTE) {
      console.error(`Workers keep dying (${deaths.length} in a minute); stopping.`);
      void stop('too many restarts', 1);
      return;
    }
    console.warn(`Worker ${worker.process.pid} stopped (${signal ?? code}); starting another.`);
    setTimeout(() => !stopping && start(), 1000).unref();
  });
  for (let i = 0; i < config.workers; i++) start();

  const stop = async (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping ${Object.keys(cluster.workers ?? {}).length} worker(s): ${reason}`);
    const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    const exited = Promise.all(running.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once('exit', () => resolve())))));
    for (const worker of running) worker.process.kill('SIGTERM');
    const late = setTimeout(() => {
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, SHUTDOWN_MS);
    await exited;
    clearTimeout(late);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

const config = readConfig();
if (config.workers > 1 && cluster.isPrimary) {
  await primary(config);
} else if (cluster.isWorker) {
  // Migrations and the seed ran in the primary: a worker opens the database and serves.
  await serve(config, await openDatabase(databaseOptionsFor(config)));
} else {
  const database = await prepare(config);
  const port = await serve(config, database);
  console.log(banner(config, database, port));
}
