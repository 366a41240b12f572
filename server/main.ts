import { FileStore } from './lib/file-store';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { databaseOptionsFor, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { deriveKeys } from './lib/crypto';
import { releaseAbandonedClaims } from './plugins/idempotency';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_RECOVERY_CODES, DEMO_TOTP_SECRET, seedDemo } from './seed/demo';

/** The only entry point: config, database, migrations, seed, listen, and a clean shutdown. */
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

const config = readConfig();
const leftovers = await new FileStore(config.dataDir).removeLeftovers();
if (leftovers > 0) console.warn(`Removed ${leftovers} half-written upload(s) left by an earlier crash.`);
const database = await openDatabase(databaseOptionsFor(config));
await migrateToLatest(database.db);
// The embedded database has one process, this one: a claim without an answer was cut off by a crash.
if (database.kind === 'pglite') await releaseAbandonedClaims(database.db);
if (config.seedDemo) await seedDemo(database.db, deriveKeys(config.appKey), { files: new FileStore(config.dataDir) });

const app = await buildApp({ config, db: database.db });
await app.listen({ port: config.port, host: config.host });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
// Under `npm run dev` the page is Vite's (scripts/dev.ts says which port); this process is the API behind it.
const pagePort = Number(process.env.HEARTH_DEV_PAGE_PORT) || port;
const lines = [`${config.productName} is running at http://localhost:${pagePort}/`];
if (pagePort !== port) lines.push(`(development: Vite serves the page on ${pagePort} and passes /api to this server on ${port})`);
if (config.host !== '127.0.0.1' && config.host !== 'localhost') lines.push(`(listening on ${config.host}:${port})`);
lines.push(`Database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pgdata` : 'PostgreSQL (DATABASE_URL)'}`);
if (config.seedDemo) {
  lines.push('', `Demo sign-ins (password ${DEMO_PASSWORD}):`);
  for (const account of DEMO_ACCOUNTS) lines.push(`  site ${account.site.padEnd(10)} ${account.username.padEnd(10)} ${account.note}`);
  lines.push(`  Riley's authenticator secret: ${DEMO_TOTP_SECRET}`);
  lines.push(`  Riley's recovery codes (each works once): ${DEMO_RECOVERY_CODES.join(' ')}`);
}
console.log(lines.join('\n'));

let stopping = false;
async function shutdown(signal: string) {
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
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
