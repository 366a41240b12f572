import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { signedInStartGroup } from './scripts/chunk-groups';
import { prerenderLogin } from './scripts/prerender-login';
import { routePages } from './scripts/route-js';

const apiTarget = process.env.HEARTH_API_ORIGIN ?? 'http://127.0.0.1:8081';
const root = fileURLToPath(new URL('.', import.meta.url));
const alias = [{ find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }];
// React Router's package exports only its development build (remix-run/react-router#14102): its
// dev warnings and checks would run on every navigation of a cheap phone. A build takes the
// production files the package ships beside them; `npm run dev` and the tests keep the warnings.
const reactRouterProduction = [
  { find: /^react-router$/, replacement: `${root}node_modules/react-router/dist/production/index.mjs` },
  { find: /^react-router\/dom$/, replacement: `${root}node_modules/react-router/dist/production/dom-export.mjs` },
];

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    // The login screen's HTML in index.html, so its first paint waits for no JavaScript (issue 13).
    prerenderLogin(),
    // The service worker (sw/sw.ts): precache of the shell and every chunk, outbox replay, push.
    // Registered by src/app/shell/service-worker.ts (no injected script: the CSP allows no inline one).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        id: '/',
        name: 'Hearth',
        short_name: 'Hearth',
        description: 'Your journal, your voice, your calendar and your goals, in one safe place.',
        lang: 'en-GB',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#3b2a6b',
        background_color: '#fff8ef',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        // Every route chunk too: they are small and hashed, and every screen then works offline. Not
        // the PDF viewer's engine (pdf.js and its worker, `.mjs` files copied from pdfjs-dist): the
        // worker caches them on demand (sw/sw.ts "viewer code").
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        globIgnores: ['sw.js'],
        // RxDB's chunk is large; a chunk past this would silently miss the precache, so fail instead.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        rollupFormat: 'es',
      },
      devOptions: { enabled: false, type: 'module' },
    }),
  ],
  resolve: { alias: command === 'build' ? [...reactRouterProduction, ...alias] : alias },
  define: {
    __BUILD_ID__: JSON.stringify(process.env.HEARTH_BUILD_ID ?? new Date().toISOString()),
    __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.0.0'),
  },
  // manifest: the chunk graph tests/build/budgets.test.ts reckons each route's JavaScript from
  // (dist/.vite/manifest.json; a dot folder, which the server does not serve).
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    rolldownOptions: {
      // What every start needs (the entry's static imports), in one chunk rather than a dozen small
      // ones: fewer requests, each with its own headers, and better compression (issue 13). Then a
      // chunk per step of a signed-in start instead of dozens of small shared ones (scripts/chunk-groups.ts).
      output: {
        codeSplitting: {
          groups: [
            { name: 'start', tags: ['$initial'] },
            signedInStartGroup(root, () => routePages(readFileSync(`${root}src/app/routes.tsx`, 'utf8'))),
          ],
        },
      },
    },
  },
  // `npm run dev`: Vite serves the PWA with hot reload and passes /api to the real server.
  server: { port: Number(process.env.PORT ?? 8080), strictPort: true, proxy: { '/api': apiTarget } },
}));
