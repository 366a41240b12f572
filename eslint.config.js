// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * ARCHITECTURE.md rules 1 and 2 as lint rules: imports go one way
 * (shared → features → app), no feature imports another, and each library stays behind its fence.
 */
const FEATURES = [
  'auth', 'mfa', 'dashboard', 'calendar', 'journal', 'voice', 'objectives', 'rewards',
  'documents', 'feedback', 'account', 'legal', 'dev',
];

/** Library fences: only the named folders may import these. */
const fenced = [
  { name: 'rxdb', message: 'Only src/data imports rxdb (ARCHITECTURE rule 2).' },
  { name: 'dexie', message: 'Only src/data imports dexie (ARCHITECTURE rule 2).' },
  { name: 'fastify', message: 'Only server/ imports fastify (ARCHITECTURE rule 2).' },
];
const fencedPatterns = [
  { group: ['rxdb/*'], message: 'Only src/data imports rxdb (ARCHITECTURE rule 2).' },
  { group: ['workbox-*'], message: 'Only sw/ imports workbox (ARCHITECTURE rule 2).' },
  { group: ['@fastify/*'], message: 'Only server/ imports fastify plugins (ARCHITECTURE rule 2).' },
];
const noFetch = {
  'no-restricted-globals': ['error', { name: 'fetch', message: 'Only src/api and sw/ call fetch (ARCHITECTURE rule 2).' }],
  'no-restricted-properties': [
    'error',
    { object: 'window', property: 'fetch', message: 'Only src/api and sw/ call fetch.' },
    { object: 'globalThis', property: 'fetch', message: 'Only src/api and sw/ call fetch.' },
  ],
};

/** Builds the no-restricted-imports rule for a folder: the fences minus what it may use, plus extra patterns. */
function restrict({ allow = [], patterns = [] } = {}) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: fenced.filter((f) => !allow.includes(f.name)),
        patterns: [...fencedPatterns.filter((p) => !p.group.some((g) => allow.some((a) => g.startsWith(a)))), ...patterns],
      },
    ],
  };
}

const upward = (message) => ({ group: ['@/features/*', '@/app/*', '**/features/*', '**/app/*'], message });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'dev-dist/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
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
  // Shared layers never reach up into features or the app.
  {
    files: ['src/components/**', 'src/lib/**', 'src/api/**', 'src/contract/**'],
    rules: { ...restrict({ patterns: [upward('Shared code must not import features or app (ARCHITECTURE rule 1).')] }) },
  },
  {
    files: ['src/components/**', 'src/lib/**', 'src/contract/**'],
    rules: { ...noFetch },
  },
  {
    files: ['src/data/**'],
    rules: {
      ...restrict({ allow: ['rxdb', 'dexie'], patterns: [upward('src/data must not import features or app (ARCHITECTURE rule 1).')] }),
      ...noFetch,
    },
  },
  {
    files: ['src/contract/**'],
    rules: {
      ...restrict({
        patterns: [
          upward('The contract is shared by src, sw and server: it imports only zod and itself.'),
          { group: ['@/data/*', '@/api/*', '@/components/*', '@/lib/*', 'react', 'react-dom'], message: 'The contract imports only zod and itself.' },
        ],
      }),
    },
  },
  // Each feature: no other feature, no app; no fetch.
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      ...restrict({
        patterns: [
          {
            group: FEATURES.filter((f) => f !== feature).flatMap((f) => [`@/features/${f}/*`, `**/features/${f}/*`]),
            message: 'No feature imports another feature; compose them in src/app (ARCHITECTURE rule 1).',
          },
          { group: ['@/app/*', '**/app/*'], message: 'Features must not import src/app (ARCHITECTURE rule 1).' },
        ],
      }),
      ...noFetch,
    },
  })),
  { files: ['src/app/**'], rules: { ...restrict(), ...noFetch } },
  { files: ['src/api/**'], rules: { ...restrict() } },
  // The service worker and the server import only the contract from src.
  {
    files: ['sw/**'],
    rules: {
      ...restrict({
        allow: ['workbox-'],
        // The contract, plus the outbox replayer, the crypto and the owner ids it shares with the page (no DOM, no React).
        patterns: [
          {
            regex: '^(@/|(\\.\\./)+src/)(?!contract/|data/crypto/(field-cipher|key-vault)$|data/outbox/(types|seal|serialise|store|backoff|replay|queue)$|data/owner$)',
            message: 'sw/ imports only src/contract and the shared outbox/crypto modules (ARCHITECTURE rule 1).',
          },
        ],
      }),
    },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: fenced.filter((f) => f.name !== 'fastify'),
          patterns: [
            { group: ['rxdb/*', 'workbox-*'], message: 'The server does not use client libraries.' },
            { group: ['@/*'], message: 'server/ imports the contract with a relative path.' },
            {
              regex: 'src/(?!contract/)',
              message: 'server/ imports only src/contract (ARCHITECTURE rule 1).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**', 'e2e/**', 'scripts/**', '*.config.ts', '*.config.js'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-globals': 'off' },
  },
);
