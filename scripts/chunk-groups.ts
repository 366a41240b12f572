/**
 * How the signed-in start's modules are put into chunks (issue 13, long tasks at start). Left to
 * itself the bundler makes a chunk for every set of lazy modules that share code: a signed-in start
 * of the dashboard fetched 66 files, most under 2 KB, and each file's `modulepreload` link and
 * request cost the main thread about 2.6 ms on a 4x slower phone (280 ms in all, Chromium trace).
 *
 * Each step of a signed-in start (LOAD_ORDER) gets one chunk for the modules it imports statically
 * that nothing before it has, less
 * - what every start has (the entry's chunk),
 * - what a signed-out page imports (those pages must not fetch signed-in code; /dev aside),
 * - the signed-in pages and the steps themselves, with all they import: each keeps its own chunk,
 *   so every module is still evaluated when it was before, in the task it was before (the replica's
 *   RxDB never with the page), and no two chunks import each other.
 * A signed-in page that needs a module of the shell's or the outbox's chunk finds it loaded: they
 * load before any signed-in page shows, beside it.
 */
import { resolve } from 'node:path';
import type { RoutePage } from './route-js';

/** The part of the bundler's module graph the plan reads: static imports only. */
export interface ModuleGraph {
  getModuleInfo(id: string): { readonly importedIds: readonly string[] } | null;
}

/** Where the signed-in pages load among the steps: what they import is never held back in a later chunk. */
export const PAGES = 'pages';

/** What a signed-in start loads, in order (src/app/routes.tsx, src/app/start-data.ts, src/data/replica). */
export const LOAD_ORDER: readonly (readonly [chunk: string, modules: readonly string[]])[] = [
  ['signed-in', ['src/app/layouts/signed-in-shell.tsx', 'src/app/shell/signed-in-style-sync.tsx']],
  ['outbox-side', ['src/app/start-outbox-side.ts']],
  [PAGES, []],
  ['replica', ['src/data/replica/lifecycle.ts']],
  ['replication', ['src/data/replication/controller.ts']],
];

export const ENTRY = 'src/main.tsx';

/**
 * /dev, the testers' page, shows the outbox and the sync state like a signed-in page and may load
 * the signed-in chunks: no one needs it on a slow phone before signing in.
 */
export const LIKE_SIGNED_IN = ['src/features/dev/components/dev-page.tsx'];

/** The chunk of each module a step claims (module id → chunk name); empty for a graph without the app's entry. */
export function planChunks(graph: ModuleGraph, pages: readonly RoutePage[], root: string): Map<string, string> {
  const id = (path: string) => resolve(root, path);
  const plan = new Map<string, string>();
  if (!graph.getModuleInfo(id(ENTRY))) return plan;
  const closure = (starts: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = [...starts];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(graph.getModuleInfo(next)?.importedIds ?? []));
    }
    return seen;
  };
  const signedIn = pages.filter((p) => p.signedIn || LIKE_SIGNED_IN.includes(p.module)).map((p) => id(p.module));
  const signedOut = pages.filter((p) => !signedIn.includes(id(p.module))).map((p) => id(p.module));
  const separate = new Set([...LOAD_ORDER.flatMap(([, modules]) => modules.map(id)), ...signedIn]);
  const taken = new Set([...closure([id(ENTRY)]), ...closure(signedOut)]);
  for (const [chunk, modules] of LOAD_ORDER) {
    if (chunk === PAGES) {
      for (const m of closure(signedIn)) taken.add(m);
      continue;
    }
    const roots = modules.map(id);
    const missing = roots.filter((m) => !graph.getModuleInfo(m));
    if (missing.length > 0) throw new Error(`scripts/chunk-groups.ts: ${missing.join(', ')} is not in the app any more; update LOAD_ORDER`);
    const reach = closure(roots);
    const ownChunks = closure([...reach].filter((m) => separate.has(m) && !roots.includes(m)));
    for (const m of reach) {
      if (taken.has(m) || ownChunks.has(m) || roots.includes(m)) continue;
      plan.set(m, chunk);
      taken.add(m);
    }
  }
  return plan;
}

/**
 * The bundler's group for these chunks (vite.config.ts). The plan is made once per chunking pass:
 * the bundler hands the same module records to every call of a pass.
 */
export function signedInStartGroup(root: string, pages: () => readonly RoutePage[]) {
  const plans = new WeakMap<object, Map<string, string>>();
  return {
    name: (moduleId: string, ctx: ModuleGraph): string | null => {
      const entry = ctx.getModuleInfo(resolve(root, ENTRY));
      if (!entry) return null;
      let plan = plans.get(entry);
      if (!plan) plans.set(entry, (plan = planChunks(ctx, pages(), root)));
      return plan.get(moduleId) ?? null;
    },
    debugName: 'signed-in start',
    // The plan already holds each step's imports; nothing else may be pulled in with them.
    includeDependenciesRecursively: false,
  };
}
