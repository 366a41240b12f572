/**
 * Scale out on PostgreSQL (issue 13), as ratios taken in one run. Needs DATABASE_URL (skipped without).
 *
 *   1. The checkpoint horizon's cost on the hot path: jamie's journal pull in checkpoint mode (the
 *      replica's request) on two apps over one schema, requests alternating, the apps taking turns
 *      to have the horizon (lib/sync-horizon.ts); medians with and without, their ratio, and the
 *      control: the first app against the second with neither having it.
 *   2. WORKERS=1 against WORKERS=2: the real server (server/main.ts), the same pull by many
 *      signed-in clients at once for a fixed time; requests per second, p50/p99, and the ratio.
 *      On a 2-core machine the load generator shares the cores, so the ratio is a floor.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { NO_HORIZON, type SyncHorizon } from '../../server/lib/sync-horizon';
import { Client } from '../../tests/server/support/client';
import { fakeStaticDir, freePort, schemaOnPostgres, startServerProcess, withoutDatabaseUrl, type ServerProcess } from '../../tests/server/support/process';
import { startPeerServer, startTestServer } from '../../tests/server/support/server';
import { browserHeaders, DEMO_PASSWORD } from '../../tests/server/support/session';
import { quantile } from './quantile';

const PULL =
  '/api/v1/projects/residents/journal/entries?sort[0][0]=updated_at&sort[0][1]=asc&sort[1][0]=id&sort[1][1]=asc&with_trashed=1&per_page=50' +
  `&checkpoint[updated_at]=${encodeURIComponent('1970-01-01T00:00:00.000000Z')}&checkpoint[id]=00000000-0000-0000-0000-000000000000`;
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const popCount = (n: number): number => (n === 0 ? 0 : (n & 1) + popCount(n >> 1));

function get(agent: Agent, base: string, path: string, cookie: string): Promise<number> {
  const url = new URL(`${base}${path}`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, agent, headers: { cookie, accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Two apps over one schema, neither of them the one that migrated and seeded it, taking turns to
 * have the horizon (A with and B without, then the other way round, in 32 short turns), each app
 * compared with itself. The first version measured the seeding app with the horizon against a
 * fresh one without, and that app was slower as such (control up to x1.7: the seed had taken its
 * connection's prepared-statement slots, since fixed in server/db/prepared-statements.ts), which
 * read as the horizon's cost (x1.4-1.6 over four runs, for a `current()` of 2 µs). Between two
 * fresh apps the control is x1.03-1.06 and the ratio x1.01 in three runs.
 */
async function horizonCost(rounds: number) {
  const owner = await startTestServer();
  const a = await startPeerServer(owner);
  const b = await startPeerServer(owner);
  type WithHorizon = FastifyInstance & { syncHorizon: SyncHorizon };
  const apps = [a.app as WithHorizon, b.app as WithHorizon] as const;
  // Bench only: each app's own horizon, switched off and on between phases.
  const own = apps.map((app) => app.syncHorizon);
  const give = (withHorizon: readonly [boolean, boolean]) => apps.forEach((app, i) => (app.syncHorizon = withHorizon[i] ? own[i]! : NO_HORIZON));
  try {
    const jamie = new Client(a.base);
    if ((await jamie.login('jamie', DEMO_PASSWORD)).status !== 200) throw new Error('jamie could not sign in');
    const cookie = browserHeaders(jamie).cookie!;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const median = (xs: number[]) => quantile([...xs].sort((x, y) => x - y), 0.5);
    /** `count` requests to each app, alternating; each app's times. */
    const alternate = async (count: number) => {
      const times: [number[], number[]] = [[], []];
      for (let i = 0; i < count; i++) {
        for (const [index, server] of [a, b].entries()) {
          const t0 = performance.now();
          if ((await get(agent, server.base, PULL, cookie)) !== 200) throw new Error('pull failed');
          times[index]!.push(performance.now() - t0);
        }
      }
      return times;
    };
    give([false, false]);
    await alternate(20); // warm-up
    const control = await alternate(rounds);
    // Each app's times with and without; each app is compared with itself, and the two ratios averaged.
    const times = { with: [[], []] as [number[], number[]], without: [[], []] as [number[], number[]] };
    // 32 short turns in Thue-Morse order (A B B A B A A B ...): a drift over the run (an app growing
    // faster as it warms) and the spells when this shared machine is slower fall on both sides alike.
    const order = Array.from({ length: 32 }, (_, turn) => popCount(turn) % 2 === 0);
    const phase = Math.ceil(rounds / order.length);
    for (const aHasIt of order) {
      give([aHasIt, !aHasIt]);
      const [timesA, timesB] = await alternate(phase);
      (aHasIt ? times.with : times.without)[0].push(...timesA);
      (aHasIt ? times.without : times.with)[1].push(...timesB);
    }
    agent.destroy();
    const ratioOf = (i: 0 | 1) => median(times.with[i]) / median(times.without[i]);
    const geometric = (x: number, y: number) => Math.sqrt(x * y);
    return {
      rounds: phase * order.length,
      medianMsWith: round(geometric(median(times.with[0]), median(times.with[1]))),
      medianMsWithout: round(geometric(median(times.without[0]), median(times.without[1]))),
      ratio: round(geometric(ratioOf(0), ratioOf(1))),
      /** Neither app with a horizon: how far the first app is from the second as such. */
      controlRatio: round(median(control[0]) / median(control[1])),
    };
  } finally {
    await b.close();
    await a.close();
    await owner.close();
  }
}

/** `connections` signed-in clients pulling in a loop for `seconds`. */
async function load(server: ServerProcess, cookies: string[], seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: cookies.length });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    cookies.map(async (cookie) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const status = await get(agent, server.base, PULL, cookie).catch(() => 0);
        if (status === 200) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, perSecond: round(latencies.length / seconds, 0), p50Ms: round(quantile(latencies, 0.5), 1), p99Ms: round(quantile(latencies, 0.99), 1) };
}

async function workersThroughput(connections: number, seconds: number) {
  const database = await schemaOnPostgres();
  const staticDir = fakeStaticDir();
  const appKey = randomBytes(32).toString('base64');
  const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
  try {
    for (const workers of [1, 2]) {
      const port = await freePort();
      const server = await startServerProcess({
        ...withoutDatabaseUrl(),
        DATABASE_URL: database.url,
        WORKERS: String(workers),
        SEED_DEMO: workers === 1 ? 'true' : 'false',
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: staticDir,
        STATIC_DIR: staticDir,
        APP_KEY: appKey,
        LOG_LEVEL: 'warn',
      });
      try {
        // Every worker up (the first answers health first), then the sign-ins, spread over them.
        await new Promise((resolve) => setTimeout(resolve, workers * 3000));
        // Eight sessions, each on connections/8 connections (the sign-in ceiling is 60 requests a minute).
        const sessions: string[] = [];
        for (let i = 0; i < 8; i++) {
          const client = new Client(server.base);
          if ((await client.login('jamie', DEMO_PASSWORD)).status !== 200) throw new Error('jamie could not sign in');
          sessions.push(browserHeaders(client).cookie!);
        }
        const cookies = Array.from({ length: connections }, (_, i) => sessions[i % sessions.length]!);
        await load(server, cookies.slice(0, 4), 2); // warm-up
        results[`workers${workers}`] = await load(server, cookies, seconds);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  } finally {
    await database.drop();
  }
  return { connections, seconds, ...results, ratio: round(results.workers2!.perSecond / results.workers1!.perSecond) };
}

export async function scaleOutBench() {
  if (!process.env.DATABASE_URL) return { skipped: 'DATABASE_URL unset (PostgreSQL only)' };
  return { horizon: await horizonCost(800), workers: await workersThroughput(32, 10) };
}
