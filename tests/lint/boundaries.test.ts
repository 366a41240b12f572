import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Probes from issue 8 §3: each imports a REAL file (the path-resolving rules need the target on disk)
// from a virtual file path, and must report the named rule. The allowed imports must stay clean,
// so the fences can neither rot open nor close on legitimate code.
const eslint = new ESLint({ cwd: process.cwd(), ignore: false });

async function rulesFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const PATHS = 'import-x/no-restricted-paths';
const IMPORTS = 'no-restricted-imports';

const probes: Array<[string, string, string, string]> = [
  ['a feature importing another feature by a relative path', 'src/features/journal/x.ts', "export * from '../voice/voice-next-steps';", PATHS],
  ['a feature importing another feature by alias', 'src/features/journal/x.ts', "export * from '@/features/voice/voice-next-steps';", PATHS],
  ['src/api importing a feature', 'src/api/x.ts', "export * from '../features/voice/voice-next-steps';", PATHS],
  ['src/contract importing ../data', 'src/contract/x.ts', "export * from '../data/owner';", PATHS],
  ['src/lib importing src/data', 'src/lib/x.ts', "export * from '@/data/owner';", PATHS],
  ['src/api importing src/data', 'src/api/x.ts', "export * from '../data/owner';", PATHS],
  ['src/main.tsx importing rxdb', 'src/main.tsx', "import { createRxDatabase } from 'rxdb';\nexport const c = createRxDatabase;", IMPORTS],
  ['src/main.tsx calling fetch', 'src/main.tsx', "export const r = fetch('/api');", 'no-restricted-globals'],
  ['self.fetch outside src/api and sw', 'src/components/x.ts', "export const r = self.fetch('/api');", 'no-restricted-properties'],
  ['window.fetch in a feature', 'src/features/journal/x.ts', "export const r = window.fetch('/api');", 'no-restricted-properties'],
  ['a feature importing the server', 'src/features/journal/x.ts', "export * from '../../../server/lib/crypto';", PATHS],
  ['a route importing another route', 'server/routes/health.ts', "export * from './app-config';", PATHS],
  ['the server importing src beyond the contract', 'server/lib/x.ts', "export * from '../../src/lib/initials';", PATHS],
  ['sw importing the page side of the pulled-ahead store', 'sw/x.ts', "export * from '../src/data/prefetch/page-link';", PATHS],
  ['workbox outside sw', 'src/app/x.ts', "import { precacheAndRoute } from 'workbox-precaching';\nexport const p = precacheAndRoute;", IMPORTS],
  ['fastify outside server', 'src/lib/x.ts', "import Fastify from 'fastify';\nexport const f = Fastify;", IMPORTS],
  ['the domain importing a route', 'server/domain/x.ts', "export * from '../routes/health';", PATHS],
  ['server/lib importing the domain', 'server/lib/x.ts', "export * from '../domain/access';", PATHS],
  ['dexie in a feature', 'src/features/journal/x.ts', "import Dexie from 'dexie';\nexport const d = Dexie;", IMPORTS],
  ['the form renderer importing src/data', 'src/components/form-renderer/x.ts', "export * from '@/data/owner';", PATHS],
  ['the form renderer importing src/api', 'src/components/form-renderer/fields/x.ts', "export * from '../../../api/base-address';", PATHS],
  ['the form renderer importing entries', 'src/components/form-renderer/x.ts', "export * from '@/entries/components/drawing-shapes';", PATHS],
  ['the form renderer importing rxdb', 'src/components/form-renderer/x.ts', "import { createRxDatabase } from 'rxdb';\nexport const c = createRxDatabase;", IMPORTS],
  ['entries importing code from rxdb (pages would carry it)', 'src/entries/data/x.ts', "import { getChangedDocumentsSince } from 'rxdb';\nexport const g = getChangedDocumentsSince;", `@typescript-eslint/${IMPORTS}`],
  ['a hook importing code from dexie', 'src/entries/hooks/x.ts', "import Dexie from 'dexie';\nexport const d = Dexie;", `@typescript-eslint/${IMPORTS}`],
];

describe('lint fences (ARCHITECTURE rules 1 and 2)', () => {
  it.each(probes)('rejects %s', async (_name, filePath, code, rule) => {
    expect(await rulesFor(filePath, code)).toContain(rule);
  });

  it('rejects an import cycle', async () => {
    const [result] = await eslint.lintFiles(['tests/lint/fixtures/cycle/a.ts']);
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle');
  });

  const allowed: Array<[string, string, string]> = [
    ['a feature importing shared layers', 'src/features/journal/x.ts', "export * from '@/lib/initials';\nexport * from '../../data/owner';"],
    ['a feature importing its own files', 'src/features/voice/x.ts', "export * from './voice-next-steps';"],
    ['src/data importing rxdb', 'src/data/x.ts', "import { createRxDatabase } from 'rxdb';\nexport const c = createRxDatabase;"],
    ['entries importing types from rxdb', 'src/entries/data/x.ts', "import type { RxCollection } from 'rxdb';\nexport type C = RxCollection;"],
    ['src/api calling fetch', 'src/api/x.ts', "export const r = self.fetch('/api');"],
    ['sw importing the outbox and workbox', 'sw/x.ts', "import { precacheAndRoute } from 'workbox-precaching';\nexport const p = precacheAndRoute;\nexport * from '../src/data/owner';"],
    ['sw importing the pulled-ahead store', 'sw/x.ts', "export * from '../src/data/prefetch/store';"],
    ['the server importing the contract and fastify', 'server/lib/x.ts', "import Fastify from 'fastify';\nexport const f = Fastify;\nexport * from '../../src/contract/http';"],
    ['a route importing server/lib', 'server/routes/health.ts', "export * from '../lib/crypto';"],
    ['the form renderer importing the contract, components and react-hook-form', 'src/components/form-renderer/x.ts', "export * from '@/contract/forms';\nexport * from '../text-field';\nexport { useForm } from 'react-hook-form';"],
  ];
  it.each(allowed)('allows %s', async (_name, filePath, code) => {
    expect(await rulesFor(filePath, code)).toEqual([]);
  });
});
