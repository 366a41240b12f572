import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntryResponseSchema } from '../../src/contract/entries';
import { ConfigError, loadConfig } from '../../server/config';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { WAIT_MS } from '../support/timeouts';
import { Client } from './support/client';
import { fakeStaticDir, freePort, schemaOnPostgres, SERVER_START_MS, startServerProcess, withoutDatabaseUrl, type ServerProcess } from './support/process';
import { browserHeaders, DEMO_PASSWORD, openStream, type OpenStream } from './support/session';
import { PDF, postForm } from './support/uploads';

/**
 * Issue 13, WORKERS=n: the real server started as `npm start` would start it, with two worker
 * processes sharing one port on PostgreSQL. The primary hands connections to the workers in turn
 * (node:cluster's round robin), so streams opened one after another are held by both workers:
 * a write through either reaches all of them. An upload is read back through both. SIGTERM stops
 * it all gracefully. The configuration refuses several processes on the embedded database.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe('WORKERS in the configuration', () => {
  const env = (extra: Record<string, string>) => ({ NODE_ENV: 'test', APP_KEY: randomBytes(32).toString('base64'), DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-config-')), ...extra });

  it('defaults to one process, takes a number or auto (one per core)', () => {
    expect(loadConfig(env({})).workers).toBe(1);
    expect(loadConfig(env({ WORKERS: '3', DATABASE_URL: 'postgres://h@localhost/h' })).workers).toBe(3);
    expect(loadConfig(env({ WORKERS: 'auto', DATABASE_URL: 'postgres://h@localhost/h' })).workers).toBe(availableParallelism());
  });

  it('refuses several processes on the embedded database, and values that are not a count', () => {
    expect(() => loadConfig(env({ WORKERS: '2' }))).toThrow(/WORKERS: 2 processes need DATABASE_URL/);
    for (const bad of ['0', '65', 'two', '1.5']) expect(() => loadConfig(env({ WORKERS: bad, DATABASE_URL: 'postgres://h@localhost/h' })), bad).toThrow(ConfigError);
  });
});

describe.runIf(onPostgres)('WORKERS=2 on PostgreSQL: real processes', () => {
  let database: Awaited<ReturnType<typeof schemaOnPostgres>>;
  let watch: DatabaseHandle;
  let server: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cluster-'));
  const staticDir = fakeStaticDir();

  /** The workers' change feeds: one listening connection per worker process (db/database.ts names them after the schema). */
  const listeners = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and application_name = ${`hearth:${database.schema}`}`.execute(watch.db)
      ).rows[0]!.n,
    );

  beforeAll(async () => {
    database = await schemaOnPostgres();
    watch = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL! });
    const port = await freePort();
    server = await startServerProcess({
      ...withoutDatabaseUrl(),
      DATABASE_URL: database.url,
      WORKERS: '2',
      NODE_CLUSTER_SCHED_POLICY: 'rr',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      APP_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'warn',
    });
    // The first worker answers health; wait for both to listen on the change feed.
    const deadline = Date.now() + SERVER_START_MS;
    while ((await listeners()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  }, SERVER_START_MS + 30_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await watch?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(staticDir, { recursive: true, force: true });
  });

  async function signedIn(username: string): Promise<Client> {
    const client = new Client(server.base);
    expect((await client.login(username, DEMO_PASSWORD)).status).toBe(200);
    return client;
  }

  /** A GET on a connection of its own (no keep-alive), so the primary hands it to the next worker. */
  function freshGet(client: Client, path: string): Promise<{ status: number; bytes: Buffer }> {
    const url = new URL(`${server.base}${path}`);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent: false, headers: { cookie: browserHeaders(client).cookie! } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('runs two worker processes behind one primary', async () => {
    expect(await listeners()).toBe(2);
    expect(server.output().match(/is running at/g)).toHaveLength(1);
    expect(server.output()).toContain('Processes: 2 (WORKERS)');
  });

  it('a write reaches the streams held by both workers', async () => {
    const jamie = await signedIn('jamie');
    const streams: OpenStream[] = [];
    try {
      // One after another, each on a connection of its own: the primary alternates between the workers.
      for (let i = 0; i < 4; i++) {
        const stream = await openStream(server, jamie);
        await stream.waitFor(/: connected/, WAIT_MS);
        streams.push(stream);
      }
      const res = await postForm(server.base, jamie, '/api/v1/projects/residents/journal/entries', [['description', 'Heard by every worker']]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await Promise.all(streams.map((s) => s.waitFor(/event: change\ndata: \{"collections":\["journal"\]\}/, WAIT_MS)));
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('an upload through one worker is read whole through each, and its bytes are in the database', async () => {
    const jamie = await signedIn('jamie');
    const bytes = Buffer.concat([PDF, randomBytes(400 * 1024)]);
    const created = await postForm(server.base, jamie, '/api/v1/projects/residents/journal/entries', [
      ['description', 'Notes for every worker'],
      ['files[0]', { name: 'notes.pdf', data: bytes, type: 'application/pdf' }],
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const file = journalEntryResponseSchema.parse(created.body).data.files[0]!;
    for (let i = 0; i < 4; i++) {
      const read = await freshGet(jamie, `/api/v1/files/view?file_id=${file.id}&module=journal`);
      expect(read.status).toBe(200);
      expect(read.bytes.equals(bytes), `read ${i}`).toBe(true);
    }
    // Not on this machine's disk: another machine's workers would not find it there.
    const onDisk = existsSync(join(dataDir, 'files')) ? readdirSync(join(dataDir, 'files'), { recursive: true }) : [];
    expect(onDisk).toEqual([]);
  });

  it('SIGTERM stops it gracefully: streams end, every process exits, connections close', async () => {
    const jamie = await signedIn('jamie');
    const streams = [await openStream(server, jamie), await openStream(server, jamie)];
    await Promise.all(streams.map((s) => s.waitFor(/: connected/, WAIT_MS)));
    server.child.kill('SIGTERM');
    await Promise.all(streams.map((s) => s.ended));
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Stopping 2 worker(s): SIGTERM');
    const deadline = Date.now() + WAIT_MS;
    while ((await listeners()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listeners()).toBe(0);
  });
});
