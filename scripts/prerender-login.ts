/**
 * Vite plugin (build only): renders the login screen from its React components
 * (src/app/render-login-shell.tsx, through a Vite server's SSR module loader, so the `@` alias and
 * the defines are the build's, and the routes' lazy imports load while it renders) and puts it into index.html's `#root`, wrapped in `.login-shell` (shown by the
 * inline first-paint script only at `/` for nobody signed in: src/app/styles/shell.css). It runs in
 * transformIndexHtml, before vite-plugin-pwa fingerprints index.html for the precache, so the
 * service worker's copy is this one (issue 13, "Login paints first"). It also hands Vite's module
 * tags to the inline first-paint script (see handOverModules).
 */
import { createServer, type Plugin, type ResolvedConfig, type Rolldown } from 'vite';
import { LOAD_ORDER, PAGES } from './chunk-groups';

export const ROOT_PLACEHOLDER = '<div id="root"></div>';
const FIRST_PAINT_TAG = '<script id="first-paint">';
const ENTRY_TAG = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const PRELOAD_TAG = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** What a signed-in start loads before its first screen (LOAD_ORDER: the shell, the outbox's side, the replica; not the pulls' code). */
const BEFORE_FIRST_SCREEN = LOAD_ORDER.filter(([chunk]) => chunk !== PAGES && chunk !== 'replication').flatMap(([, modules]) => modules);

/**
 * The chunks of BEFORE_FIRST_SCREEN with every chunk they import, the entry's aside, as addresses.
 * The app imports them once the entry has run; the first-paint script names them to the browser at
 * once on a signed-in start, so they load and compile beside the entry instead of after it (issue
 * 13: on an offline start of the journal the replica's chunks arrived 30-60 ms after the entry ran,
 * and the replica's opening waits for them).
 */
export function signedInPreloads(bundle: Rolldown.OutputBundle, base: string): string[] {
  const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const roots = BEFORE_FIRST_SCREEN.map((module) => {
    const found = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(`/${module}`));
    if (!found) throw new Error(`scripts/prerender-login.ts: no chunk for ${module}`);
    return found;
  });
  const closure = (from: readonly Rolldown.OutputChunk[], skip: ReadonlySet<string>): Set<string> => {
    const seen = new Set<string>();
    const visit = (chunk: Rolldown.OutputChunk) => {
      if (skip.has(chunk.fileName) || seen.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      for (const file of chunk.imports) {
        const next = byFile.get(file);
        if (next) visit(next);
      }
    };
    from.forEach(visit);
    return seen;
  };
  // The entry and what it imports (a chunk of the bundler's runtime helpers, say) load with the entry already.
  const withEntry = closure(
    chunks.filter((chunk) => chunk.isEntry),
    new Set(),
  );
  return [...closure(roots, withEntry)].map((file) => `${base}${file}`);
}

/**
 * Vite's module tags move onto the first-paint script (index.html), which starts them itself: after
 * the login screen's first paint where it shows, at once elsewhere; a signed-in start also gets the
 * chunks of `signedIn` preloaded.
 */
function handOverModules(html: string, signedIn: readonly string[]): string {
  const entry = ENTRY_TAG.exec(html)?.[1];
  if (!entry) throw new Error('index.html has no module script to hand over');
  if (!html.includes(FIRST_PAINT_TAG)) throw new Error(`index.html has no ${FIRST_PAINT_TAG}`);
  const preloads = [...html.matchAll(PRELOAD_TAG)].map((match) => match[1] as string);
  return html
    .replace(ENTRY_TAG, '')
    .replace(PRELOAD_TAG, '')
    .replace(
      FIRST_PAINT_TAG,
      `<script id="first-paint" data-entry="${entry}" data-preload="${preloads.join(' ')}" data-signed-in-preload="${signedIn.join(' ')}">`,
    );
}
const NO_STYLES = '\0hearth-prerender-no-styles';

/** Stylesheets come from the build's own CSS; in the renderer an import of one is an empty module. */
const noStyles: Plugin = {
  name: 'hearth:prerender-no-styles',
  enforce: 'pre',
  resolveId: (id) => (/\.css(\?|$)/.test(id) ? NO_STYLES : null),
  load: (id) => (id === NO_STYLES ? 'export default "";' : null),
};

export function prerenderLogin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'hearth:prerender-login',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!ctx.bundle) throw new Error('scripts/prerender-login.ts runs in the build only');
        if (!html.includes(ROOT_PLACEHOLDER)) throw new Error(`index.html has no ${ROOT_PLACEHOLDER} to prerender into`);
        const server = await createServer({
          configFile: false,
          root: config.root,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          optimizeDeps: { noDiscovery: true, include: [] },
          plugins: [noStyles],
          resolve: { alias: config.resolve.alias },
          define: { ...config.define, 'import.meta.env.DEV': 'false', 'import.meta.env.PROD': 'true' },
        });
        let markup: string;
        try {
          const module = (await server.ssrLoadModule('/src/app/render-login-shell.tsx')) as { renderLoginShell(): Promise<string> };
          markup = await module.renderLoginShell();
        } finally {
          await server.close();
        }
        return handOverModules(html, signedInPreloads(ctx.bundle, config.base)).replace(ROOT_PLACEHOLDER, `<div id="root"><div class="login-shell" data-prerendered="login">${markup}</div></div>`);
      },
    },
  };
}
