/**
 * `tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows] [window seconds]`: where a V8 CPU profile (`node --cpu-prof`,
 * e.g. from BENCH_API_CPU_PROF in api-load.ts) spent its time, as text: the top functions by self time,
 * and self time by package (node_modules/<name>), by file of ours, and by Node internals; idle and GC apart.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
}

/** Where a frame's code lives: a package, one of our files, node internals, or V8's own buckets. */
export function ownerOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const ours = /\/(server|src|scripts)\/(.+)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/**
 * `windowSeconds`: only the samples of the busiest window of that length (the load phase, without the
 * start-up, warm-up or idle time around it); 0 for the whole profile.
 */
export function summarise(profile: Profile, top = 25, windowSeconds = 0) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((at += delta));
  let [from, to] = [-Infinity, Infinity];
  if (windowSeconds > 0) {
    // Two pointers over the samples: the window that holds the most non-idle time.
    const width = windowSeconds * 1e6;
    let best = -1;
    let busy = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      if (!idle.has(profile.samples[end]!)) busy += profile.timeDeltas[end] ?? 0;
      while (times[end]! - times[start]! > width) {
        if (!idle.has(profile.samples[start]!)) busy -= profile.timeDeltas[start] ?? 0;
        start++;
      }
      if (busy > best) [best, from, to] = [busy, times[start]!, times[end]!];
    }
  }
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (times[i]! >= from && times[i]! <= to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url, functionName);
    const fn = `${functionName || '(anonymous)'} ${owner}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
  // Inclusive: a sample counts once for every owner (and every function of ours) on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      const owner = ownerOf(url, functionName);
      seen.add(owner);
      if (/^(server|src)\//.test(owner)) seen.add(`${functionName || '(anonymous)'} ${owner}:${lineNumber + 1}`);
    }
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
  const rank = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => ({ name, ms: Math.round(us / 1000), percent: Math.round((us / total) * 1000) / 10 }));
  return { totalMs: Math.round(total / 1000), functions: rank(byFunction), owners: rank(byOwner), inclusive: rank(inclusive) };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [file, n, last] = process.argv.slice(2);
  if (!file) {
    console.error('usage: tsx scripts/bench/profile-top.ts <file.cpuprofile> [rows, default 25] [seconds: only the busiest window that long]');
    process.exit(2);
  }
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(n) || 25, Number(last) || 0);
  const lines = (rows: { name: string; ms: number; percent: number }[]) => rows.map((r) => `${String(r.percent).padStart(5)}%  ${String(r.ms).padStart(7)} ms  ${r.name}`).join('\n');
  process.stdout.write(`total ${summary.totalMs} ms sampled\n\nself time by owner:\n${lines(summary.owners)}\n\nself time by function:\n${lines(summary.functions)}\n\ninclusive (owner or function of ours on the stack):\n${lines(summary.inclusive)}\n`);
}
