/**
 * g. API load on PostgreSQL (issue 13, server throughput): the real server (`server/main.ts`, production
 * settings, its log to a file) in its own process on BENCH_DATABASE_URL, a fresh schema per server, jamie
 * signed in through the API (CSRF cookie, then login), and autocannon on loopback:
 *
 *   1. health: `/api/health` at saturation (one `select 1` per request: the floor of a request that reaches the database);
 *   2. pulls: signed-in sync pulls at saturation, the journal list in checkpoint mode (as src/data/replication/pull.ts
 *      asks for it) and `GET /api/v1/auth/user`, alternating on each connection;
 *   3. paced: the same pulls at 200 requests a second, evenly spaced (paced-load.ts), the latency a person sees when
 *      the server is not full.
 *
 * Requests carry a browser's `Accept-Encoding`, so compression (plugins/compression.ts) is measured too.
 * Besides req/s and latencies, each phase reports the CPU time per request of the server process and of
 * its PostgreSQL backends (Linux /proc): on a shared machine that moves far less than req/s does.
 *
 * With BENCH_API_BASELINE_DIR (another checkout, e.g. `git worktree add /tmp/base <commit>` with its own
 * `npm ci`), that checkout's server runs beside this one, on its own schema, and the phases alternate
 * between the two for BENCH_API_ROUNDS rounds (default 3): both see the same machine, and the report
 * gives medians and this/baseline ratios from one run.
 *
 * Environment: BENCH_DATABASE_URL (the section is skipped without it), BENCH_API_PORT (default: free
 * ports; the baseline takes the next one), BENCH_API_SECONDS (each phase, default 10),
 * BENCH_API_CONNECTIONS (default 200), BENCH_API_RATE (paced, default 200), BENCH_API_PHASES (default
 * `health,pulls,paced`), BENCH_API_PULLS (default `journal,account`), BENCH_API_ACCEPT_ENCODING (default
 * Chromium's; empty for none), BENCH_API_SERVER_DIR (measure another checkout alone), BENCH_API_CPU_PROF
 * (a directory: the servers run under `node --cpu-prof` and write their profiles there when stopped;
 * `tsx scripts/bench/profile-top.ts <file>` summarises one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { pacedLoad, type PacedRequest } from './paced-load';
import type * as DatabaseModule from '../../server/db/database';
import type * as MigrateModule from '../../server/db/migrate';

const DEMO = { username: 'jamie', password: 'hearth-demo-1', client_site: 'demo' };
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const EPOCH_CHECKPOINT = { updated_at: '1970-01-01T00:00:00.000000Z', id: '00000000-0000-0000-0000-000000000000' };
const ACCOUNT_PATH = '/api/v1/auth/user';
/** A server is quiet after this many health answers in a row, each within QUIET_MS. */
const QUIET_ANSWERS = 5;
const QUIET_MS = 10;
/** A server that never says its warm-up ended (an old baseline) is warm after SETTLED_SECONDS under SETTLED_CPU_MS of CPU a second. */
const SETTLED_CPU_MS = 50;
const SETTLED_SECONDS = 3;
const PHASES = ['health', 'pulls', 'paced'] as const;
const PULLS = ['journal', 'account'] as const;
type PhaseName = (typeof PHASES)[number];
type PullName = (typeof PULLS)[number];

export interface LoadPhase {
  requestsPerSecond: number;
  requests: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** CPU time per request (10 ms ticks) of the server process and of the PostgreSQL backends of its pool. */
  cpuMsPerRequest: { server: number; database: number } | null;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface ServerResult {
  serverDir: string;
  /** Per phase: the median round (by req/s), with every round's req/s and server CPU per request. */
  phases: Partial<Record<PhaseName, LoadPhase & { rounds: { requestsPerSecond: number; serverCpuMs: number | null }[] }>>;
  /** Signed-in pulls per second over health checks per second, both at saturation. */
  pullsOverHealth: number | null;
  /** What the pulls answer, so a run that measured 401s or empty pages would show it. */
  sample: { journalEntries: number; journalBytes: number; accountBytes: number };
}

export type ApiLoadResult =
  | { skipped: string }
  | {
      connections: number;
      pacedRate: number;
      seconds: number;
      rounds: number;
      current: ServerResult;
      baseline: ServerResult | null;
      /** current / baseline per phase: req/s, p99 and server CPU per request (medians). */
      ratios: Partial<Record<PhaseName, { requestsPerSecond: number; p99: number; serverCpu: number | null }>> | null;
      cpuProfileDir: string | null;
    };

interface Settings {
  databaseUrl: string;
  seconds: number;
  connections: number;
  pacedRate: number;
  rounds: number;
  phases: PhaseName[];
  pulls: PullName[];
  encodings: string;
  cpuProfileDir: string | null;
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

function envList<T extends string>(name: string, allowed: readonly T[]): T[] {
  const list = (process.env[name] ?? allowed.join(',')).split(',').map((p) => p.trim());
  const wrong = list.filter((p) => !(allowed as readonly string[]).includes(p));
  if (wrong.length > 0 || list.length === 0) throw new Error(`${name}: one or more of ${allowed.join(', ')}`);
  return list as T[];
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The connection string with every connection's search_path set to `schema` (node-postgres reads
 * `options`) and a name that finds the server's backends in pg_stat_activity.
 */
function withSearchPath(url: string, schema: string, applicationName: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  parsed.searchParams.set('application_name', applicationName);
  return parsed.href;
}

/** The journal pull of src/data/replication/pull.ts: updated_at, id ascending, tombstones, a checkpoint. */
export function journalPullPath(checkpoint = EPOCH_CHECKPOINT, perPage = 100): string {
  const query = new URLSearchParams({
    'sort[0][0]': 'updated_at',
    'sort[0][1]': 'asc',
    'sort[1][0]': 'id',
    'sort[1][1]': 'asc',
    with_trashed: '1',
    per_page: String(perPage),
    'checkpoint[updated_at]': checkpoint.updated_at,
    'checkpoint[id]': checkpoint.id,
  });
  return `/api/v1/projects/residents/journal/entries?${query}`;
}

const TICK_MS = 10; // getconf CLK_TCK = 100 on Linux

/** utime + stime of a process in ms, or null when it is gone (or not on Linux). */
function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

interface CpuSnapshot {
  server: number | null;
  backends: Map<number, number>;
}

function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): LoadPhase['cpuMsPerRequest'] {
  if (before.server === null || after.server === null || requests === 0) return null;
  let database = 0;
  for (const [pid, ms] of after.backends) database += ms - (before.backends.get(pid) ?? 0);
  const round = (ms: number) => Math.round((ms / requests) * 1000) / 1000;
  return { server: round(after.server - before.server), database: round(database) };
}

/** Cookies of a response into the jar, as name → value. */
function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
  }
}

/** Signs jamie in as the PWA does: the CSRF cookie first, then the login with the token echoed. */
async function signIn(base: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const csrf = await fetch(`${base}/api/auth/csrf-cookie`, { headers: { accept: 'application/json' } });
  if (csrf.status !== 204) throw new Error(`csrf-cookie answered ${csrf.status}`);
  cookiesOf(csrf, jar);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', cookie: cookieHeader(), 'x-xsrf-token': jar.get('XSRF-TOKEN') ?? '' },
    body: JSON.stringify(DEMO),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  cookiesOf(login, jar);
  return cookieHeader();
}

/** One server under test: its own schema, process, log file and signed-in cookie. */
class BenchServer {
  private process: ChildProcess | null = null;
  base = '';
  requests: PacedRequest[] = [];
  sample: ServerResult['sample'] = { journalEntries: 0, journalBytes: 0, accountBytes: 0 };
  private readonly schema = `bench_api_${randomBytes(5).toString('hex')}`;
  private readonly applicationName = `hearth-${this.schema}`;
  private readonly work = mkdtempSync(join(tmpdir(), 'hearth-api-bench-'));

  constructor(
    readonly serverDir: string,
    private readonly settings: Settings,
    private readonly admin: pg.Client,
  ) {}

  async start(port: number): Promise<void> {
    const { databaseUrl, cpuProfileDir } = this.settings;
    await this.admin.query(`create schema ${this.schema}`);
    // Migrate with the schema named, as the test databases do: Kysely would otherwise take another
    // schema's migration table for this one's. The server then finds every migration done.
    const { openDatabase } = (await import(pathToFileURL(join(this.serverDir, 'server/db/database.ts')).href)) as typeof DatabaseModule;
    const { migrateToLatest } = (await import(pathToFileURL(join(this.serverDir, 'server/db/migrate.ts')).href)) as typeof MigrateModule;
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl, schema: this.schema });
    try {
      await migrateToLatest(handle.db, this.schema);
    } finally {
      await handle.close();
    }

    const logFile = join(this.work, 'server.log');
    const log = openSync(logFile, 'w');
    const nodeArgs = ['--import', import.meta.resolve('tsx'), ...(cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : []), 'server/main.ts'];
    this.process = spawn(process.execPath, nodeArgs, {
      cwd: this.serverDir,
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: withSearchPath(databaseUrl, this.schema, this.applicationName),
        DATA_DIR: join(this.work, 'data'),
        STATIC_DIR: join(this.serverDir, 'dist'),
        APP_KEY: randomBytes(32).toString('base64'),
        SEED_DEMO: 'true',
      },
    });
    closeSync(log);
    this.base = `http://127.0.0.1:${port}`;
    await this.waitForHealth(logFile, 180_000);
    await this.waitForWarmUp(logFile, 120_000);

    const cookie = await signIn(this.base);
    const journalPath = journalPullPath();
    const journal = await fetch(`${this.base}${journalPath}`, { headers: { cookie, accept: 'application/json' } });
    const journalText = await journal.text();
    const account = await fetch(`${this.base}${ACCOUNT_PATH}`, { headers: { cookie, accept: 'application/json' } });
    const accountText = await account.text();
    if (journal.status !== 200 || account.status !== 200) throw new Error(`signed-in pulls answered ${journal.status} and ${account.status}`);
    this.sample = {
      journalEntries: (JSON.parse(journalText) as { data: unknown[] }).data.length,
      journalBytes: Buffer.byteLength(journalText),
      accountBytes: Buffer.byteLength(accountText),
    };
    const paths: Record<PullName, string> = { journal: journalPath, account: ACCOUNT_PATH };
    this.requests = this.settings.pulls.map((name) => ({ method: 'GET', path: paths[name], headers: { cookie } }));
    // A short warm-up so the JIT and the connection pool are not what the first phase measures.
    await autocannon({ url: this.base, connections: 20, duration: 3, requests: this.requests });
  }

  private async waitForHealth(logFile: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.process?.exitCode !== null) throw new Error(`the server in ${this.serverDir} exited: ${readFileSync(logFile, 'utf8').slice(-2_000)}`);
      try {
        if ((await fetch(`${this.base}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`the server in ${this.serverDir} did not answer /api/health within ${timeoutMs} ms: ${readFileSync(logFile, 'utf8').slice(-2_000)}`);
  }

  /**
   * A production server loads the image check's model in each of its workers once it listens
   * (about a second of CPU each): measured beside it, the first seconds of a phase ran on what the
   * warm-up left of two cores (paced p99 49 ms in one run, 24 ms in the next). Phases start once the
   * server says the check is ready, or that it did not start. A baseline from before that line (the
   * issue's "before", d45b40b) never says it: it is warm once its CPU has settled, under
   * SETTLED_CPU_MS a second for SETTLED_SECONDS seconds in a row.
   */
  private async waitForWarmUp(logFile: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pid = this.process?.pid;
    let second = { at: Date.now(), cpu: pid ? cpuMs(pid) : null };
    let settled = 0;
    while (Date.now() < deadline) {
      if (/"msg":"image check (ready|did not start)/.test(readFileSync(logFile, 'utf8'))) return;
      await new Promise((r) => setTimeout(r, 250));
      if (!pid || Date.now() - second.at < 1_000) continue;
      const now = { at: Date.now(), cpu: cpuMs(pid) };
      const used = now.cpu !== null && second.cpu !== null ? ((now.cpu - second.cpu) * 1_000) / (now.at - second.at) : Number.POSITIVE_INFINITY;
      settled = used < SETTLED_CPU_MS ? settled + 1 : 0;
      second = now;
      if (settled >= SETTLED_SECONDS) return;
    }
    throw new Error(`the server in ${this.serverDir} did not finish warming up within ${timeoutMs} ms`);
  }

  private async cpu(): Promise<CpuSnapshot> {
    const { rows } = await this.admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [this.applicationName]);
    const backends = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = cpuMs(pid);
      if (ms !== null) backends.set(pid, ms);
    }
    return { server: this.process?.pid ? cpuMs(this.process.pid) : null, backends };
  }

  /**
   * Waits until the server answers health checks promptly again. autocannon stops with up to
   * `connections` requests still queued in the server; measured in one run, the paced phase that
   * started right after the pulls phase had its first 70 ms of requests all finish together at
   * 85 ms (that queue draining), and those were its p99 (55 ms one run, 9 ms the next). The paced
   * phase measures a server that is not full, so it starts once this one is not.
   */
  async quiet(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let prompt = 0;
    while (prompt < QUIET_ANSWERS && Date.now() < deadline) {
      const t0 = performance.now();
      const ok = await fetch(`${this.base}/api/health`).then((r) => r.ok, () => false);
      prompt = ok && performance.now() - t0 < QUIET_MS ? prompt + 1 : 0;
      if (prompt === 0) await new Promise((r) => setTimeout(r, 50));
    }
  }

  async measure(phase: PhaseName): Promise<LoadPhase> {
    const before = await this.cpu();
    const result = await this.load(phase);
    const after = await this.cpu();
    const measured: LoadPhase = { ...result, cpuMsPerRequest: cpuPerRequest(before, after, result.requests) };
    // A wrong answer (a 401 would be fast) spoils the measurement; a timeout or reset under overload is part of it (reported).
    if (measured.non2xx > 0) throw new Error(`${phase} on ${this.serverDir}: ${measured.non2xx} non-2xx answers out of ${measured.requests}`);
    return measured;
  }

  /** Saturation with autocannon; the paced phase at an even pace (paced-load.ts says why not autocannon's rate). */
  private async load(phase: PhaseName): Promise<Omit<LoadPhase, 'cpuMsPerRequest'>> {
    const { connections, seconds, pacedRate, encodings } = this.settings;
    const headers = { accept: 'application/json', ...(encodings ? { 'accept-encoding': encodings } : {}) };
    if (phase === 'paced') {
      const result = await pacedLoad({ base: this.base, requests: this.requests, rate: pacedRate, seconds, headers });
      return { ...result, requestsPerSecond: Math.round(result.requests / result.seconds) };
    }
    const options: autocannon.Options =
      phase === 'health'
        ? { url: `${this.base}/api/health`, connections, duration: seconds, headers }
        : { url: this.base, connections, duration: seconds, requests: this.requests, headers };
    const result = await autocannon(options);
    return {
      requestsPerSecond: Math.round(result.requests.total / result.duration),
      requests: result.requests.total,
      seconds: Math.round(result.duration * 10) / 10,
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    };
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await this.admin.query(`drop schema if exists ${this.schema} cascade`).catch(() => undefined);
    rmSync(this.work, { recursive: true, force: true });
  }
}

function median<T>(items: T[], by: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => by(a) - by(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function summarise(server: BenchServer, measured: Map<PhaseName, LoadPhase[]>): ServerResult {
  const phases: ServerResult['phases'] = {};
  for (const [phase, rounds] of measured) {
    phases[phase] = {
      ...median(rounds, (r) => r.requestsPerSecond),
      rounds: rounds.map((r) => ({ requestsPerSecond: r.requestsPerSecond, serverCpuMs: r.cpuMsPerRequest?.server ?? null })),
    };
  }
  const { health, pulls } = phases;
  return {
    serverDir: server.serverDir,
    phases,
    pullsOverHealth: health && pulls ? Math.round((pulls.requestsPerSecond / health.requestsPerSecond) * 100) / 100 : null,
    sample: server.sample,
  };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

export async function apiLoadBench(root: string): Promise<ApiLoadResult> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) return { skipped: 'BENCH_DATABASE_URL is not set (e.g. postgres://hearth:hearth@127.0.0.1:5432/hearth_bench): no PostgreSQL to load' };
  const baselineDir = process.env.BENCH_API_BASELINE_DIR ? resolve(process.env.BENCH_API_BASELINE_DIR) : null;
  const settings: Settings = {
    databaseUrl,
    seconds: envNumber('BENCH_API_SECONDS', 10),
    connections: envNumber('BENCH_API_CONNECTIONS', 200),
    pacedRate: envNumber('BENCH_API_RATE', 200),
    rounds: envNumber('BENCH_API_ROUNDS', baselineDir ? 3 : 1),
    phases: envList('BENCH_API_PHASES', PHASES),
    pulls: envList('BENCH_API_PULLS', PULLS),
    encodings: process.env.BENCH_API_ACCEPT_ENCODING ?? BROWSER_ENCODINGS,
    cpuProfileDir: process.env.BENCH_API_CPU_PROF ? resolve(process.env.BENCH_API_CPU_PROF) : null,
  };
  const port = envNumber('BENCH_API_PORT', 0);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const current = new BenchServer(resolve(process.env.BENCH_API_SERVER_DIR ?? root), settings, admin);
  const baseline = baselineDir ? new BenchServer(baselineDir, settings, admin) : null;
  const servers = baseline ? [current, baseline] : [current];
  try {
    await current.start(port || (await freePort()));
    if (baseline) await baseline.start(port ? port + 1 : await freePort());
    const measured = new Map(servers.map((s) => [s, new Map<PhaseName, LoadPhase[]>()]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const phase of settings.phases) {
        // Alternate which server goes first, so neither always runs right after the other's heaviest phase.
        for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
          for (const each of servers) await each.quiet();
          const list = measured.get(server)!;
          list.set(phase, [...(list.get(phase) ?? []), await server.measure(phase)]);
        }
      }
    }
    const currentResult = summarise(current, measured.get(current)!);
    const baselineResult = baseline ? summarise(baseline, measured.get(baseline)!) : null;
    let ratios: Extract<ApiLoadResult, { current: ServerResult }>['ratios'] = null;
    if (baselineResult) {
      ratios = {};
      for (const phase of settings.phases) {
        const a = currentResult.phases[phase]!;
        const b = baselineResult.phases[phase]!;
        const cpu = (p: LoadPhase[]) => median(p.map((r) => r.cpuMsPerRequest?.server ?? Number.NaN), (x) => x);
        ratios[phase] = {
          requestsPerSecond: ratio(a.requestsPerSecond, b.requestsPerSecond),
          p99: ratio(a.latencyMs.p99, b.latencyMs.p99),
          serverCpu: baseline ? ratio(cpu(measured.get(current)!.get(phase)!), cpu(measured.get(baseline)!.get(phase)!)) : null,
        };
      }
    }
    return {
      connections: settings.connections,
      pacedRate: settings.pacedRate,
      seconds: settings.seconds,
      rounds: settings.rounds,
      current: currentResult,
      baseline: baselineResult,
      ratios,
      cpuProfileDir: settings.cpuProfileDir,
    };
  } finally {
    for (const server of servers) await server.stop();
    await admin.end();
  }
}

function serverLine(result: ServerResult, pacedRate: number): string {
  const { health, pulls, paced } = result.phases;
  const cpu = (phase: LoadPhase) => (phase.cpuMsPerRequest ? `, ${phase.cpuMsPerRequest.server}+${phase.cpuMsPerRequest.database} ms CPU/req` : '');
  const parts = [
    health ? `health ${health.requestsPerSecond} req/s${cpu(health)}` : null,
    pulls ? `pulls ${pulls.requestsPerSecond} req/s (p50 ${pulls.latencyMs.p50} p99 ${pulls.latencyMs.p99} ms${cpu(pulls)})` : null,
    result.pullsOverHealth !== null ? `x${result.pullsOverHealth} of health` : null,
    paced ? `paced ${pacedRate}/s p50 ${paced.latencyMs.p50} p99 ${paced.latencyMs.p99} ms` : null,
  ];
  const failures = Object.entries(result.phases).filter(([, p]) => p.errors > 0 || p.timeouts > 0);
  if (failures.length > 0) parts.push(`errors/timeouts: ${failures.map(([name, p]) => `${name} ${p.errors}/${p.timeouts}`).join(', ')}`);
  return parts.filter(Boolean).join('; ');
}

/** The bench table's line(s): this server, and with a baseline its line and the ratios. */
export function apiLoadRows(result: ApiLoadResult): [string, string][] {
  if ('skipped' in result) return [['g. API load (PostgreSQL)', `skipped: ${result.skipped}`]];
  const rows: [string, string][] = [['g. API load (PostgreSQL)', serverLine(result.current, result.pacedRate)]];
  if (result.baseline && result.ratios) {
    rows.push(['g. baseline', serverLine(result.baseline, result.pacedRate)]);
    const parts = Object.entries(result.ratios).map(([phase, r]) => `${phase} req/s x${r.requestsPerSecond}, p99 x${r.p99}, server CPU/req x${r.serverCpu}`);
    rows.push(['g. this / baseline', `${parts.join('; ')} (medians of ${result.rounds} alternating rounds)`]);
  }
  return rows;
}

// `tsx scripts/bench/api-load.ts` runs this section alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(new URL('../..', import.meta.url).pathname);
  apiLoadBench(root).then(
    (result) => {
      const rows = apiLoadRows(result);
      const width = Math.max(...rows.map(([k]) => k.length));
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n\n${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
