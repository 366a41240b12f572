import { describe, expect, it } from 'vitest';
import { LIKE_SIGNED_IN, planChunks, signedInStartGroup, type ModuleGraph } from '../../scripts/chunk-groups';
import type { RoutePage } from '../../scripts/route-js';

const ROOT = '/app';
const at = (path: string) => `${ROOT}/${path}`;

/** A graph from `module: [static imports] | { imports, lazy }` written with paths under ROOT. */
function graph(modules: Record<string, string[] | { imports?: string[]; lazy?: string[] }>): ModuleGraph {
  const infos = new Map(
    Object.entries(modules).map(([path, spec]) => {
      const { imports = [], lazy = [] } = Array.isArray(spec) ? { imports: spec } : spec;
      return [at(path), { importedIds: imports.map(at), dynamicallyImportedIds: lazy.map(at) }] as const;
    }),
  );
  return { getModuleInfo: (id) => infos.get(id) ?? null };
}

const SHELL = 'src/app/layouts/signed-in-shell.tsx';
const STYLE = 'src/app/shell/signed-in-style-sync.tsx';
const OUTBOX_SIDE = 'src/app/start-outbox-side.ts';
const LIFECYCLE = 'src/data/replica/lifecycle.ts';
const CONTROLLER = 'src/data/replication/controller.ts';
const LOGIN = 'src/features/auth/components/login-page.tsx';
const DASHBOARD = 'src/features/dashboard/components/dashboard-page.tsx';
const JOURNAL = 'src/features/journal/components/journal-entries-page.tsx';
const DEV = LIKE_SIGNED_IN[0]!;

const pages: RoutePage[] = [
  { path: '/', module: LOGIN, signedIn: false },
  { path: '/dev', module: DEV, signedIn: false },
  { path: '/dashboard', module: DASHBOARD, signedIn: true },
  { path: '/journal/entries', module: JOURNAL, signedIn: true },
];

/** A small app shaped like Hearth's: an entry, a signed-out page, the shell, the engine and two pages. */
const appSpec: Record<string, string[] | { imports?: string[]; lazy?: string[] }> = {
  'src/main.tsx': { imports: ['src/app/app.tsx'], lazy: [LOGIN, DEV, SHELL, STYLE, DASHBOARD, JOURNAL, OUTBOX_SIDE] },
  'src/app/app.tsx': ['src/lib/strings.ts'],
  'src/lib/strings.ts': [],
  [LOGIN]: { imports: ['src/contract/auth.ts', 'src/lib/strings.ts'], lazy: ['src/data/wipe-steps.ts'] },
  'src/contract/auth.ts': ['zod'],
  zod: [],
  'src/data/wipe-steps.ts': { lazy: ['src/data/outbox/outbox.ts', LIFECYCLE] },
  [DEV]: ['src/data/outbox/use-outbox.ts'],
  [SHELL]: ['src/data/hooks/use-live.ts', 'src/components/icon.tsx', 'src/data/outbox/use-outbox.ts', 'src/contract/auth.ts'],
  [STYLE]: ['src/data/hooks/use-live.ts'],
  'src/data/hooks/use-live.ts': ['src/data/replica/replica-store.ts'],
  'src/data/replica/replica-store.ts': [],
  'src/components/icon.tsx': [],
  'src/data/outbox/use-outbox.ts': ['src/data/outbox/outbox.ts'],
  'src/data/outbox/outbox.ts': ['src/data/crypto/key-vault.ts'],
  'src/data/crypto/key-vault.ts': [],
  [OUTBOX_SIDE]: { imports: ['src/data/outbox/outbox.ts', 'src/data/outbox/replay.ts'], lazy: ['src/entries/data/settle.ts'] },
  'src/data/outbox/replay.ts': ['src/data/crypto/key-vault.ts'],
  'src/entries/data/settle.ts': ['src/data/replica/rxdb.ts'],
  [DASHBOARD]: ['src/data/hooks/use-live.ts', 'src/components/avatar.tsx', 'src/lib/relative-time.ts'],
  [JOURNAL]: ['src/components/avatar.tsx', 'src/lib/relative-time.ts', 'src/entries/hooks/use-comments.ts'],
  'src/components/avatar.tsx': [],
  'src/lib/relative-time.ts': [],
  'src/entries/hooks/use-comments.ts': { lazy: [LIFECYCLE, 'src/data/replication/endpoints.ts'] },
  [LIFECYCLE]: { imports: ['src/data/replica/rxdb.ts', 'src/data/replica/replica-store.ts'], lazy: [CONTROLLER] },
  'src/data/replica/rxdb.ts': ['rxdb'],
  rxdb: [],
  [CONTROLLER]: ['src/data/replication/endpoints.ts', 'src/data/replica/rxdb.ts'],
  'src/data/replication/endpoints.ts': ['src/contract/entries.ts'],
  'src/contract/entries.ts': ['zod'],
};
const app = graph(appSpec);

const chunkOf = (plan: Map<string, string>) => (path: string) => plan.get(at(path)) ?? null;

describe('the chunks of a signed-in start (scripts/chunk-groups.ts)', () => {
  const plan = planChunks(app, pages, ROOT);
  const chunk = chunkOf(plan);

  it('puts what the shell imports in one chunk, with what the outbox side adds in its own', () => {
    expect(['src/data/hooks/use-live.ts', 'src/data/replica/replica-store.ts', 'src/components/icon.tsx'].map(chunk)).toEqual(['signed-in', 'signed-in', 'signed-in']);
    // The outbox is the shell's (it imports it first); the replay only the outbox side's.
    expect(chunk('src/data/outbox/outbox.ts')).toBe('signed-in');
    expect(chunk('src/data/crypto/key-vault.ts')).toBe('signed-in');
    expect(chunk('src/data/outbox/replay.ts')).toBe('outbox-side');
  });

  it('leaves the entry’s modules and everything a signed-out page imports where they were', () => {
    for (const path of ['src/main.tsx', 'src/app/app.tsx', 'src/lib/strings.ts', LOGIN, 'src/contract/auth.ts', 'zod']) expect(chunk(path), path).toBeNull();
  });

  it('keeps each page and each step in a chunk of its own, and the replica’s code out of the page’s', () => {
    for (const path of [SHELL, STYLE, OUTBOX_SIDE, LIFECYCLE, CONTROLLER, DASHBOARD, JOURNAL, DEV]) expect(chunk(path), path).toBeNull();
    // Pages share what no step has in chunks of the bundler's own making.
    expect(chunk('src/components/avatar.tsx')).toBeNull();
    expect(chunk('src/lib/relative-time.ts')).toBeNull();
    // RxDB stays the replica's, and the replication's contracts the replication's, though a page loads them lazily.
    expect(chunk('src/data/replica/rxdb.ts')).toBe('replica');
    expect(chunk('rxdb')).toBe('replica');
    expect(chunk('src/data/replication/endpoints.ts')).toBe('replication');
    expect(chunk('src/contract/entries.ts')).toBe('replication');
  });

  it('claims exactly these modules', () => {
    expect(Object.fromEntries([...plan].map(([id, name]) => [id.slice(ROOT.length + 1), name]))).toEqual({
      'src/data/hooks/use-live.ts': 'signed-in',
      'src/data/replica/replica-store.ts': 'signed-in',
      'src/components/icon.tsx': 'signed-in',
      'src/data/outbox/use-outbox.ts': 'signed-in',
      'src/data/outbox/outbox.ts': 'signed-in',
      'src/data/crypto/key-vault.ts': 'signed-in',
      'src/data/outbox/replay.ts': 'outbox-side',
      'src/data/replica/rxdb.ts': 'replica',
      rxdb: 'replica',
      'src/data/replication/endpoints.ts': 'replication',
      'src/contract/entries.ts': 'replication',
    });
  });

  it('/dev may load the signed-in chunks; any other signed-out page that imports a module keeps it out of them', () => {
    expect(LIKE_SIGNED_IN).toEqual([DEV]);
    const asLogin = planChunks(app, pages.map((p) => (p.module === DEV ? { ...p, module: LOGIN } : p)).concat({ path: '/other', module: DEV, signedIn: false }), ROOT);
    expect(chunkOf(asLogin)('src/data/outbox/use-outbox.ts')).toBe('signed-in');
    const loginUsesOutbox = graph({ ...appSpec, [LOGIN]: ['src/data/outbox/use-outbox.ts'] });
    const strict = chunkOf(planChunks(loginUsesOutbox, pages, ROOT));
    for (const path of ['src/data/outbox/use-outbox.ts', 'src/data/outbox/outbox.ts', 'src/data/crypto/key-vault.ts']) expect(strict(path), path).toBeNull();
    expect(strict('src/data/hooks/use-live.ts')).toBe('signed-in');
  });

  it('a graph without the app’s entry (the service worker’s build) gets no chunks of these', () => {
    expect(planChunks(graph({ 'sw/sw.ts': ['src/data/outbox/outbox.ts'], 'src/data/outbox/outbox.ts': [] }), pages, ROOT).size).toBe(0);
    const group = signedInStartGroup(ROOT, () => pages);
    expect(group.name(at('src/data/outbox/outbox.ts'), graph({ 'sw/sw.ts': ['src/data/outbox/outbox.ts'] }))).toBeNull();
    expect(group.name(at('src/data/outbox/outbox.ts'), app)).toBe('signed-in');
  });
});

describe('a step of LOAD_ORDER that the app no longer has', () => {
  it('fails the build with its name instead of silently splitting the start again', () => {
    const { [CONTROLLER]: _gone, ...rest } = appSpec;
    expect(() => planChunks(graph(rest), pages, ROOT)).toThrow(/src\/data\/replication\/controller\.ts is not in the app any more/);
  });
});
