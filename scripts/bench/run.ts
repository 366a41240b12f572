/**
 * `npm run bench`: every benchmark in one run on this machine, written to
 * bench/results/bench-<timestamp>.json, with a short table on stdout.
 *
 *   a. initial sync of 5,000 calendar instances (real server in-process → encrypted replica), in Node
 *      (fake-indexeddb) and in Chromium (its IndexedDB, on disk: sync-in-chromium.ts); the median of
 *      BENCH_SYNC_RUNS runs each (default 3), every run's time beside it
 *   b. encrypted vs unencrypted insert and query of 1,000 documents, in Node (fake-indexeddb) and in
 *      Chromium (its IndexedDB on disk and WebCrypto, where the replica runs: encryption-in-chromium.ts)
 *   c. local write → reactive query emission
 *   d. warm offline start to dashboard content in Chromium, and bundle sizes
 *   e. (in d's browser run) journal with 1,000 entries: offline list open, and save → entry in list
 *   f. image check: old (CPU backend, one worker) vs new (WebAssembly, a pool of workers), scripts/bench/image-check.ts
 *   g. API load on PostgreSQL (BENCH_DATABASE_URL): health and signed-in pulls with autocannon (api-load.ts)
 *   h. Lighthouse, mobile defaults, median of 3: login (cold), dashboard and journal entries (warm profile)
 *   i. (in h's run) JavaScript transferred per route, in the browser and from the build's manifest
 *   j. scale out on PostgreSQL (DATABASE_URL; skipped without): the checkpoint horizon's cost, WORKERS=1 vs 2
 *
 * Sections are independent: one that fails records its error and the others still run.
 * a–c run the data layer through Vite's module runner, so `import.meta.env` and the `@` alias
 * resolve as they do under vitest; d drives the built PWA.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';
import { apiLoadBench, apiLoadRows } from './api-load';
import { browserBench } from './browser';
import { encryptionInChromiumBench } from './encryption-in-chromium';
import { medianRun } from './median-run';
import { syncInChromiumBench } from './sync-in-chromium';
import { imageCheckBench } from './image-check';
import { lighthouseBench, lighthouseRows } from './lighthouse';
import { scaleOutBench } from './scale-out';
import type * as DataSectionsModule from './data-sections';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
type DataSections = typeof DataSectionsModule;

async function loadDataSections(): Promise<DataSections> {
  const { module } = await runnerImport<DataSections>(join(root, 'scripts/bench/data-sections.ts'), {
    configFile: false,
    root,
    logLevel: 'error',
    resolve: { alias: { '@': join(root, 'src') } },
    // Production-like: no RxDB dev-mode, no schema validator in the measured paths.
    define: { 'import.meta.env.DEV': 'false', 'import.meta.env.PROD': 'true' },
  });
  return module;
}

interface SectionResult {
  ok: boolean;
  ms: number;
  result?: unknown;
  error?: string;
}

async function section(name: string, fn: () => Promise<unknown>): Promise<SectionResult> {
  process.stdout.write(`… ${name}\n`);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { ok: true, ms: Math.round(performance.now() - t0), result };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stdout.write(`  failed: ${message}\n`);
    return { ok: false, ms: Math.round(performance.now() - t0), error: message };
  }
}

async function main() {
  const started = new Date();
  let data: DataSections | null = null;
  const withData = async <T>(fn: (d: DataSections) => Promise<T>) => fn((data ??= await loadDataSections()));

  const syncRuns = Number(process.env.BENCH_SYNC_RUNS ?? 3);
  const sections = {
    initialSync: await section('a. initial sync of 5,000 documents', () => withData((d) => medianRun(syncRuns, () => d.syncBench(), (r) => r.ms))),
    initialSyncInChromium: await section('a. the same in Chromium (IndexedDB on disk)', () => medianRun(syncRuns, () => syncInChromiumBench(root), (r) => r.ms)),
    encryption: await section('b. encrypted vs unencrypted, 1,000 documents', () => withData((d) => d.encryptionBench())),
    encryptionInChromium: await section('b. the same in Chromium (IndexedDB on disk)', () => encryptionInChromiumBench(root)),
    reactiveQuery: await section('c. local write → reactive query', () => withData((d) => d.reactiveBench())),
    offlineStart: await section('d. warm offline start in Chromium', () => browserBench(root)),
    imageCheck: await section('f. image check, old vs new backend', () => imageCheckBench()),
    apiLoad: await section('g. API load on PostgreSQL', () => apiLoadBench(root)),
    lighthouse: await section('h. Lighthouse (mobile, median of 3) and JS per route', () => lighthouseBench({ root })),
    scaleOut: await section('j. scale out on PostgreSQL (horizon cost, WORKERS=1 vs 2)', () => scaleOutBench()),
  };

  // The browser's version is part of the machine: Chromium 150's IndexedDB took the same sync about
  // twice as long as Chromium 156's on these machines (docs/decisions.md, "Replica speed").
  const chromium = [sections.initialSyncInChromium, sections.encryptionInChromium]
    .map((s) => /Chromium [\d.]+/.exec(String((s.result as { method?: unknown } | undefined)?.method ?? ''))?.[0])
    .find(Boolean);
  const machine = {
    node: process.version,
    chromium: chromium ?? null,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    memoryGb: Math.round(totalmem() / 2 ** 30),
  };
  const report = { startedAt: started.toISOString(), machine, sections };
  const dir = join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  const rows: [string, string][] = [
    ['machine', `Node ${machine.node}, ${machine.chromium ?? 'no Chromium'}, ${machine.cpus} × ${machine.cpuModel ?? 'unknown CPU'}, ${machine.memoryGb} GB`],
  ];
  const get = (s: SectionResult) => s.result as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const failed = (s: SectionResult) => `FAILED: ${s.error ?? ''}`.slice(0, 100);
  const syncRow = (s: SectionResult) =>
    s.ok
      ? `${get(s).ms} ms (median of ${get(s).allRuns.join('/')}; in sync ${get(s).inSyncMs} ms), ${get(s).requests} requests (${get(s).calendarRequests} calendar), ${(get(s).responseBytes / 1024).toFixed(0)} KiB, ${get(s).docsPerSecond} docs/s`
      : failed(s);
  rows.push(['a. initial sync 5,000 docs, Node', syncRow(sections.initialSync)]);
  rows.push(['a. initial sync 5,000 docs, Chromium', syncRow(sections.initialSyncInChromium)]);
  const encryptionRow = (s: SectionResult) =>
    s.ok
      ? `insert ${get(s).encrypted.insertMs}/${get(s).plain.insertMs} ms (x${get(s).ratio.insert}; the same seals alone ${get(s).cipher.sealBatchMs} ms, bare WebCrypto ${get(s).cipher.webCryptoMs} ms), query after reopen ${get(s).encrypted.queryAfterReopenMs}/${get(s).plain.queryAfterReopenMs} ms (x${get(s).ratio.queryAfterReopen})`
      : failed(s);
  rows.push(['b. encrypted/plain 1,000 docs, Node', encryptionRow(sections.encryption)]);
  rows.push(['b. encrypted/plain 1,000 docs, Chromium', encryptionRow(sections.encryptionInChromium)]);
  const c = sections.reactiveQuery;
  rows.push([
    'c. write → $ emission',
    c.ok
      ? `update median ${get(c).update.medianMs} ms p95 ${get(c).update.p95Ms} ms; insert median ${get(c).insert.medianMs} ms p95 ${get(c).insert.p95Ms} ms`
      : failed(c),
  ]);
  const d = sections.offlineStart;
  rows.push([
    'd. offline reload → dashboard',
    d.ok
      ? `median ${get(d).medianMs} ms over ${get(d).runs} (${get(d).serviceWorkerControlled ? 'service worker' : 'NO service worker'}); entry ${(get(d).bundle.entry.gzipBytes / 1024).toFixed(1)} KiB gz, dashboard JS ${(get(d).bundle.dashboardRouteJs.gzipBytes / 1024).toFixed(1)} KiB gz`
      : failed(d),
  ]);
  const j = d.ok ? (get(d).journal as Record<string, any>) : null; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!d.ok) {
    rows.push(['e. journal (1,000 entries)', failed(d)]);
  } else if (!j || j.error) {
    rows.push(['e. journal (1,000 entries)', `FAILED: ${String(j?.error ?? 'no result')}`.slice(0, 100)]);
  } else {
    rows.push([
      'e1. offline open journal list',
      `median ${j.offlineList.medianMs} ms over ${j.offlineList.runs} (${j.seeded} entries seeded, ${j.serviceWorkerControlled ? 'service worker' : 'NO service worker'})${j.offlineList.errors.length ? `; errors: ${String(j.offlineList.errors[0]).slice(0, 60)}` : ''}`,
    ]);
    rows.push([
      'e2. save → entry in list',
      `median ${j.saveToList.medianMs} ms over ${j.saveToList.runs}${j.saveToList.duplicateMatches.length ? `; shown twice in ${j.saveToList.duplicateMatches.length} run(s)` : ''}${j.saveToList.errors.length ? `; errors: ${String(j.saveToList.errors[0]).slice(0, 60)}` : ''}`,
    ]);
  }
  const f = sections.imageCheck;
  const fo = f.ok ? (get(f).old as Record<string, any> | null) : null; // eslint-disable-line @typescript-eslint/no-explicit-any
  const fn = f.ok ? (get(f).new as Record<string, any>) : null; // eslint-disable-line @typescript-eslint/no-explicit-any
  const oldNew = (o: number | undefined, n: number, ratio: number | null) => (o === undefined ? `${n} ms` : `${o}/${n} ms (x${ratio})`);
  rows.push([
    'f. image check old/new',
    f.ok && fn
      ? `still cold ${oldNew(fo?.coldStillMs, fn.coldStillMs, get(f).speedup.coldStill)}, warm ${oldNew(fo?.warmStillMs, fn.warmStillMs, get(f).speedup.warmStill)}; 8 at once ${oldNew(fo?.concurrent8.wallMs, fn.concurrent8.wallMs, get(f).speedup.concurrent8)}; 5 animated + drawing ${oldNew(fo?.entry.ms, fn.entry.ms, get(f).speedup.entry)}; ${fn.workers} ${fn.backend} workers${get(f).equivalence ? `, max prob. diff ${get(f).equivalence.maxAbsDiff}` : ''}`
      : failed(f),
  ]);
  const g = sections.apiLoad;
  if (g.ok) rows.push(...apiLoadRows(g.result as Parameters<typeof apiLoadRows>[0]));
  else rows.push(['g. API load (PostgreSQL)', failed(g)]);
  const h = sections.lighthouse;
  if (h.ok) rows.push(...lighthouseRows(h.result as Awaited<ReturnType<typeof lighthouseBench>>));
  else rows.push(['h. lighthouse', failed(h)]);
  const so = sections.scaleOut;
  rows.push([
    'j. scale out (PostgreSQL)',
    !so.ok
      ? failed(so)
      : get(so).skipped
        ? `skipped: ${get(so).skipped}`
        : `checkpoint pull with/without horizon ${get(so).horizon.medianMsWith}/${get(so).horizon.medianMsWithout} ms (x${get(so).horizon.ratio}, control x${get(so).horizon.controlRatio}); WORKERS=2/1 ${get(so).workers.workers2.perSecond}/${get(so).workers.workers1.perSecond} req/s (x${get(so).workers.ratio}), p99 ${get(so).workers.workers2.p99Ms}/${get(so).workers.workers1.p99Ms} ms`,
  ]);
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n${rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n')}\n\nwritten ${file}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
