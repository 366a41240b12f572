import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_KINDS } from '@/contract/entry-kind';
import { allRoutes, entryPaths, fileViewPath, paths, restRoute } from '@/contract/paths';

const root = join(import.meta.dirname, '..', '..');

/** A pattern as a regular expression: each `:param` is one non-empty segment; a query may follow. */
const patternRegex = (pattern: string): RegExp =>
  new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/?#]+')}(\\?.*)?$`);

const paramCount = (pattern: string): number => (pattern.match(/:[A-Za-z]+/g) ?? []).length;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Quoted or template literals in a file that start with one of the API's top-level segments. */
function apiLiterals(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(['`])(\/(?:v1|auth|app-config|health|dev)(?:[/?][^'`\s]*)?)\1/g)) found.push(match[2]!);
  // `${base}/v1/...` or `${base}/auth/...` in a template literal: the path after the interpolated base.
  for (const match of text.matchAll(/`\$\{[^}]+\}(\/(?:v1|auth|app-config|health|dev)(?:[/?][^`\s]*)?)`/g)) found.push(match[1]!);
  return found;
}

describe('REST paths table', () => {
  it('builds every path so that it matches its own pattern, with each id in its own segment', () => {
    for (const route of allRoutes()) {
      const ids = Array.from({ length: paramCount(route.pattern) }, (_, i) => `id-${i}`);
      const built = (route.build as (...p: string[]) => string)(...ids);
      expect(built, route.pattern).toMatch(patternRegex(route.pattern));
      expect(built.includes(':'), route.pattern).toBe(false);
      ids.forEach((id) => expect(built, route.pattern).toContain(`/${id}`));
    }
  });

  it('encodes ids with encodeURIComponent, in the order of the pattern', () => {
    expect(paths.user.build('a b/c?d')).toBe('/v1/users/a%20b%2Fc%3Fd');
    expect(paths.projectSetting.build('p 1', 'dark/mode')).toBe('/v1/projects/p%201/settings/dark%2Fmode');
    expect(paths.rewardExchange.build('r', 'w')).toBe('/v1/projects/residents/r/rewards/w/exchange');
    expect(paths.account.build()).toBe('/v1/auth/user');
    expect(entryPaths.voice.entryComments.build('e1')).toBe('/v1/projects/residents/voices/entries/e1/comments');
    expect(entryPaths.journal.comment.build('c1')).toBe('/v1/projects/residents/journal/entries/comments/c1');
    expect(() => (restRoute('/v1/x/:id').build as (...p: string[]) => string)()).toThrow(TypeError);
  });

  it('has one route set per entry kind, the same shape for both', () => {
    expect(Object.keys(entryPaths).sort()).toEqual([...ENTRY_KINDS].sort());
    for (const kind of ENTRY_KINDS) {
      const base = kind === 'journal' ? '/v1/projects/residents/journal/entries' : '/v1/projects/residents/voices/entries';
      expect(Object.fromEntries(Object.entries(entryPaths[kind]).map(([name, route]) => [name, route.pattern]))).toEqual({
        entries: base,
        entry: `${base}/:id`,
        comments: `${base}/comments`,
        comment: `${base}/comments/:id`,
        entryComments: `${base}/:id/comments`,
      });
    }
    expect(paths.journalEntries).toBe(entryPaths.journal.entries);
    expect(paths.voiceEntries).toBe(entryPaths.voice.entries);
  });

  it('builds the file view query as src/api/files/view-file.ts does', () => {
    expect(fileViewPath('f 1', 'comment')).toBe('/v1/files/view?file_id=f%201&module=comment');
  });

  // What the server registers is checked against this table by tests/server/routes-table.test.ts.
  it('has every route literal left in server/routes as a pattern of the table', () => {
    const patterns = new Set(allRoutes().map((route) => route.pattern));
    const literals = filesUnder(join(root, 'server', 'routes')).flatMap(apiLiterals);
    for (const literal of literals) expect(patterns.has(literal), literal).toBe(true);
  });

  it('leaves no API path literal in the PWA or the service worker: they build paths from this table', () => {
    const contract = join(root, 'src', 'contract');
    const files = [join(root, 'src'), join(root, 'sw')].flatMap(filesUnder).filter((file) => !file.startsWith(contract));
    const literals = files.flatMap((file) => apiLiterals(file).map((literal) => ({ file, literal })));
    // Screens' own routes that share a first segment with the API (/auth/mfa/verify is a page).
    const pages = new Set(['/auth/mfa/verify', '/auth/mfa/configure', '/auth/mfa/configure/authenticator', '/auth/mfa/configure/email']);
    const left = literals.filter(({ literal }) => !pages.has(literal) && !literal.includes('...')); // `...`: prose in a comment
    expect(left.map(({ file, literal }) => `${file.slice(root.length + 1)}: ${literal}`)).toEqual([]);
  });
});
