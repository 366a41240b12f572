import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, paths } from '../../src/contract/paths';
import { startTestServer, type TestServer } from './support/server';

/** Every path of SPEC §7 in the table is served (documents since issue 11, rewards since issue 10). */
const NOT_SERVED_YET = new Set<string>();

/**
 * Every path with at least one method, read from Fastify's printed route tree
 * (`printRoutes({ commonPrefix: false })`): each line is an indent of four characters per level,
 * a branch (`├── ` or `└── `), the path piece below its parent, and the methods in brackets.
 */
function registeredPaths(tree: string): string[] {
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (match[3]) found.push(stack.join(''));
  }
  return found;
}

describe('the server registers the paths table', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Development mode, so the development mailbox is registered too.
    server = await startTestServer({ env: { NODE_ENV: 'development', LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => server?.close());

  it('serves exactly the table routes below /api, apart from those not served yet', () => {
    const api = registeredPaths(server.app.printRoutes({ commonPrefix: false }))
      .filter((path) => path.startsWith('/api/'))
      .map((path) => path.slice('/api'.length));
    const expected = allRoutes()
      .map((route) => route.pattern)
      .filter((pattern) => !NOT_SERVED_YET.has(pattern));
    expect(new Set(api).size).toBe(api.length);
    expect([...api].sort()).toEqual([...expected].sort());
  });

  it('reads the printed tree the way Fastify nests it', () => {
    // A guard on the parser above: a parametric route with a child below it keeps both.
    expect(server.app.hasRoute({ method: 'GET', url: `/api${paths.user.pattern}` })).toBe(true);
    expect(server.app.hasRoute({ method: 'POST', url: `/api${paths.changePassword.pattern}` })).toBe(true);
    expect(registeredPaths('└── / (GET, HEAD)\n    ├── api/v1/users/:id (GET, HEAD)\n    │   └── /change-password (POST, PUT)\n    └── api/x\n        └── /y (GET)')).toEqual([
      '/',
      '/api/v1/users/:id',
      '/api/v1/users/:id/change-password',
      '/api/x/y',
    ]);
  });
});
