// @ts-check
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

/**
 * ARCHITECTURE.md rules 1 and 2 as lint rules. Import direction is checked on RESOLVED paths
 * (import-x/no-restricted-paths), so `../../features/x`, `@/features/x` and `../../../server/y` are
 * all caught the same way; name patterns on the import string missed relative paths.
 * Layers, lowest first: contract ← lib, api ← data ← components ← entries ← features ← app.
 */
const dirs = (path) => (existsSync(path) ? readdirSync(path, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);
const FEATURES = dirs('src/features');
const ROUTES = existsSync('server/routes') ? readdirSync('server/routes') : [];

const rule1 = 'ARCHITECTURE rule 1: imports go one way (contract ← lib, api ← data ← components ← entries ← features ← app).';
/** @type {Array<{ target: string, from: string | string[], except?: string[], message: string }>} */
const zones = [
  { target: './src/contract', from: ['./src/lib', './src/api', './src/data', './src/components', './src/entries', './src/features', './src/app', './src/main.tsx'], message: 'The contract imports only zod and itself. ' + rule1 },
  ...['./src/lib', './src/api'].map((target) => ({
    target, from: ['./src/data', './src/components', './src/entries', './src/features', './src/app', './src/main.tsx'], message: `${target.slice(2)} never imports data, components, entries, features or app. ${rule1}`,
  })),
  { target: './src/data', from: ['./src/components', './src/entries', './src/features', './src/app', './src/main.tsx'], message: `src/data never imports components, entries, features or app. ${rule1}` },
  { target: './src/components', from: ['./src/entries', './src/features', './src/app', './src/main.tsx'], message: `src/components never imports entries, features or app. ${rule1}` },
  { target: './src/entries', from: ['./src/features', './src/app', './src/main.tsx'], message: `src/entries never imports features or app. ${rule1}` },
  // The form renderer (issue 9) is shared by objectives and documents: its caller hands it answers and files.
  { target: './src/components/form-renderer', from: ['./src/data', './src/api'], message: 'src/components/form-renderer is presentational: answers and files come from its caller, never from src/data or src/api.' },
  ...FEATURES.map((f) => ({
    target: `./src/features/${f}`, from: './src/features', except: [`./${f}`], message: `No feature imports another feature; compose them in src/app. ${rule1}`,
  })),
  { target: './src/features', from: ['./src/app', './src/main.tsx'], message: `Features never import src/app. ${rule1}` },
  // src never imports the server or the worker; the server and the worker take only the contract from src.
  { target: './src', from: ['./server', './sw'], message: 'src/ never imports server/ or sw/ (ARCHITECTURE rule 1).' },
  { target: './server', from: './src', except: ['./contract'], message: 'server/ imports only src/contract from src (ARCHITECTURE rule 1).' },
  { target: './server', from: './sw', message: 'server/ never imports sw/.' },
  // The worker shares the outbox replayer, the crypto, the owner ids and the pulled-ahead store with the page (no DOM, no React).
  { target: './sw', from: './src', except: ['./contract', './data/outbox', './data/crypto', './data/owner.ts', './data/prefetch/store.ts'], message: 'sw/ imports only src/contract and the shared outbox/crypto/owner/prefetch-store modules (ARCHITECTURE rule 1).' },
  { target: './sw', from: './server', message: 'sw/ never imports server/.' },
  // The server's own layers: lib knows no domain, the domain knows no routes.
  { target: './server/domain', from: './server/routes', message: 'server/domain never imports a route; routes call the domain.' },
  { target: './server/lib', from: ['./server/domain', './server/routes'], message: 'server/lib is infrastructure: it never imports the domain or a route.' },
  // A route never imports another route: shared logic lives in server/domain, server/lib, server/plugins, server/db.
  ...ROUTES.map((r) => ({
    target: `./server/routes/${r}`, from: './server/routes', except: [`./${r}`], message: 'A route never imports another route; move shared code to server/domain or server/lib.',
  })),
];

/** Library fences (rule 2): a package import is allowed only in the folders that own the library. */
const LIBS = {
  rxdb: { group: ['rxdb', 'rxdb/*'], message: 'Only src/data imports rxdb; src/entries/{data,hooks} import its types only (ARCHITECTURE rule 2).' },
  dexie: { group: ['dexie', 'dexie/*'], message: 'Only src/data imports dexie; src/entries/{data,hooks} import its types only (ARCHITECTURE rule 2).' },
  workbox: { group: ['workbox-*', 'workbox-*/*'], message: 'Only sw/ imports workbox (ARCHITECTURE rule 2).' },
  fastify: { group: ['fastify', 'fastify/*', '@fastify/*'], message: 'Only server/ imports fastify (ARCHITECTURE rule 2).' },
};
const fence = (...allowed) => ({
  'no-restricted-imports': ['error', { patterns: Object.entries(LIBS).filter(([k]) => !allowed.includes(k)).map(([, v]) => v) }],
});
const fetchMessage = 'Only src/api and sw/ call fetch (ARCHITECTURE rule 2).';
const noFetch = {
  'no-restricted-globals': ['error', { name: 'fetch', message: fetchMessage }],
  'no-restricted-properties': ['error', ...['window', 'globalThis', 'self'].map((object) => ({ object, property: 'fetch', message: fetchMessage }))],
};

/**
 * Pages load src/entries statically, and the chunk plan (scripts/chunk-groups.ts) gives a page
 * every module it reaches: a value imported from RxDB there would pull RxDB out of the replica's
 * chunk into the page's (stop 40: the replica then failed to open, "Class extends value
 * undefined"). So entries take RxDB's types only, and what they need of its code comes with the
 * open replica (src/data/replica/replica-store.ts).
 */
const TYPES_ONLY = ['src/entries/data/**', 'src/entries/hooks/**'];
const DATA_OWNERS = ['src/data/**', ...TYPES_ONLY];
const typesOnly = {
  'no-restricted-imports': ['error', { patterns: [LIBS.workbox, LIBS.fastify] }],
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: [LIBS.rxdb, LIBS.dexie].map((p) => ({ ...p, allowTypeImports: true })) }],
};
// tests/lint/fixtures is globally ignored; tests/lint/boundaries.test.ts lints it with ignore: false.
const CODE = ['src/**/*.{ts,tsx}', 'sw/**/*.ts', 'server/**/*.ts', 'tests/lint/fixtures/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'dev-dist/**', 'test-results/**', 'playwright-report/**', 'bench/results/**', 'tests/lint/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Rule 1 on resolved paths, and no import cycles, over src, sw and server.
  {
    files: CODE,
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x parses only .js files and no-cycle silently checks nothing.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'tsconfig.sw.json', 'tsconfig.server.json', 'tsconfig.tools.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Rule 2, one block per owner (mutually exclusive file sets, so no block overrides another).
  { files: ['src/**/*.{ts,tsx}'], ignores: DATA_OWNERS, rules: { ...fence() } },
  { files: ['src/data/**'], rules: { ...fence('rxdb', 'dexie') } },
  { files: TYPES_ONLY, rules: typesOnly },
  { files: ['sw/**/*.ts'], rules: { ...fence('workbox') } },
  { files: ['server/**/*.ts'], rules: { ...fence('fastify') } },
  { files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'], ignores: ['src/api/**'], rules: { ...noFetch } },
  {
    files: ['tests/**', 'e2e/**', 'scripts/**', '*.config.ts', '*.config.js'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' },
  },
);
