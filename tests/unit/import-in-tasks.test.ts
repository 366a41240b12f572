/**
 * The contract's modules evaluated a module per task at a signed-in start (issue 13): the helper
 * lets the browser in between steps, and the lists name each zod-building module after the ones it
 * imports, so each step builds only its own schemas and the import that needs them all (the
 * replication's controller, the account's loader) finds them loaded.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importInTasks } from '@/lib/import-in-tasks';

describe('importInTasks', () => {
  it('starts each step only after the browser had a turn since the one before', async () => {
    const log: string[] = [];
    let release: () => void = () => undefined;
    const pause = () => new Promise<void>((resolve) => (release = () => (log.push('turn'), resolve())));
    const step = (name: string) => async () => void log.push(name);
    const done = importInTasks([step('a'), step('b'), step('c')], pause);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 0));
      release();
    }
    await done;
    expect(log).toEqual(['a', 'turn', 'b', 'turn', 'c', 'turn']);
  });

  it('rejects with the failing step and runs none after it', async () => {
    const ran: string[] = [];
    const failure = new Error('chunk did not load');
    const steps = [async () => void ran.push('a'), () => Promise.reject(failure), async () => void ran.push('c')];
    await expect(importInTasks(steps, () => Promise.resolve())).rejects.toBe(failure);
    expect(ran).toEqual(['a']);
  });
});

const root = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(path, 'utf8');

/** Source file of an import specifier ('@/x' or relative), or null for a package. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? join(root, 'src', specifier.slice(2)) : specifier.startsWith('.') ? resolve(dirname(from), specifier) : null;
  if (!base) return null;
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((c) => /\.tsx?$/.test(c) && existsSync(c)) ?? null;
}

/** The static, non-type imports of a file (what evaluates with it). */
function valueImports(file: string): string[] {
  const text = read(file);
  const specifiers = [...text.matchAll(/^import\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
  return specifiers.flatMap((s) => resolveSpecifier(file, s) ?? []);
}

/** The contract modules that build zod schemas, reached by evaluating `start`. */
function zodContractReached(start: string): Set<string> {
  const seen = new Set<string>();
  const reached = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.includes('/src/contract/') && /from 'zod'/.test(read(file))) reached.add(file);
    valueImports(file).forEach(walk);
  };
  walk(start);
  return reached;
}

const listSource = read(join(root, 'src/data/contract-in-tasks.ts'));
function listed(name: 'accountContract' | 'replicationContract'): string[] {
  const body = new RegExp(`export const ${name}[^=]*= \\[([\\s\\S]*?)\\];`).exec(listSource)?.[1] ?? '';
  const own = [...body.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1] as string);
  return body.includes('...accountContract') ? [...listed('accountContract'), ...own] : own;
}

describe.each([
  ['accountContract', 'src/data/load-account.ts'],
  ['replicationContract', 'src/data/replication/controller.ts'],
] as const)('%s', (name, importer) => {
  const modules = listed(name);
  const files = modules.map((m) => resolveSpecifier(join(root, 'src/data/x.ts'), m) ?? m);

  it('names only contract modules that build schemas', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/\/src\/contract\/[\w-]+\.ts$/);
      expect(read(file)).toMatch(/from 'zod'/);
    }
  });

  it('names every schema-building module of the contract that its importer evaluates', () => {
    const missing = [...zodContractReached(join(root, importer))].filter((file) => !files.includes(file));
    expect(missing.map((f) => f.slice(root.length + 1))).toEqual([]);
  });

  it('lists each module after the schema-building modules it imports', () => {
    files.forEach((file, index) => {
      const earlier = new Set(files.slice(0, index));
      const needs = valueImports(file).filter((dep) => dep.includes('/src/contract/') && /from 'zod'/.test(read(dep)));
      expect(needs.filter((dep) => !earlier.has(dep)).map((f) => f.slice(root.length + 1)), file).toEqual([]);
    });
  });
});
