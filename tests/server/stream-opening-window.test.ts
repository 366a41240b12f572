import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WAIT_MS } from '../support/timeouts';
import type { Client } from './support/client';
import { DEMO_PASSWORD, demoIds, openStream, signedIn, type OpenStream } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * A session that ends while one of its event streams is opening (server/routes/sync/stream.ts):
 * the request was authenticated, then the person signed out or changed their password, and the
 * notice went out before the stream listened for it. The stream checks its session once it
 * listens, so it ends at once rather than at its first ping (25 s later).
 *
 * The window is held open, not hit by timing: the stream's first query after authentication (its
 * audience: the person's resident row) waits until the test has ended the session through the API.
 * The order is then the real one: the session plugin authenticated the request, the logout or the
 * password change committed and told the notifier while no stream of that session listened, and
 * only then did the stream subscribe. The ping's interval is fake and never fires here, so only
 * the check after subscribing can end the stream.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
/** Statements the database ran, in order (Kysely's log: after each one has run). */
const statements: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ onQuery: (query) => void statements.push(query.sql) });
  ids = await demoIds(server);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await server?.close();
});

type Builder = Record<PropertyKey, unknown>;
const EXECUTES = new Set<PropertyKey>(['execute', 'executeTakeFirst', 'executeTakeFirstOrThrow']);

/** A query builder whose execution waits for `until`; the builders it makes do too. */
function held<T extends object>(builder: T, until: Promise<void>): T {
  return new Proxy(builder, {
    get(target, key) {
      const value = (target as Builder)[key];
      if (typeof value !== 'function') return value;
      if (EXECUTES.has(key)) {
        return async (...args: unknown[]) => {
          await until;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out && typeof out === 'object' && out !== target ? held(out, until) : out;
      };
    },
  });
}

/**
 * Holds the next stream between its authentication and its subscription: the next query of the
 * `residents` table (the first query `audienceOf` makes) waits for `release`.
 */
function holdNextAudience() {
  let reached: () => void = () => undefined;
  const authenticated = new Promise<void>((resolve) => (reached = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const db = server.app.db;
  const real = db.selectFrom.bind(db);
  let armed = true;
  vi.spyOn(db, 'selectFrom').mockImplementation(((from: never) => {
    const builder = real(from) as object;
    if (!armed || from !== 'residents') return builder;
    armed = false;
    reached();
    return held(builder, released);
  }) as typeof db.selectFrom);
  return { authenticated, release };
}

/** Resolves when the server ends the stream; fails after `ms` (the ping is fake and never comes). */
function endsWithin(stream: OpenStream, what: string, ms = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
  });
  return Promise.race([stream.ended, late]).finally(() => clearTimeout(timer));
}

const aliveChecks = () => statements.filter((sql) => /from "sessions" where "id" = \$1 and "token_hash" = \$2/.test(sql)).length;

async function signOut(client: Client): Promise<void> {
  expect((await client.post('/api/auth/logout', {})).status).toBeLessThan(300);
}

async function changePassword(client: Client): Promise<void> {
  const password = 'a-new-longer-password-1';
  const res = await client.put(`/api/v1/users/${ids.user['demo/sam']}/change-password`, { current: DEMO_PASSWORD, password, password_confirmation: password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('a session that ends while its stream opens', () => {
  it.each([
    ['signs out', 'jamie', signOut],
    ['changes their password', 'sam', changePassword],
  ] as const)('the person %s after the stream was authenticated and before it listened: the stream ends at once', async (_, username, endSession) => {
    const client = await signedIn(server, username);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const noticeSent = vi.spyOn(server.app.notifier, 'endSessions');
    const listened = vi.spyOn(server.app.notifier, 'onSessionEnded');
    const hold = holdNextAudience();
    const opening = openStream(server, client);
    let stream: OpenStream | null = null;
    try {
      await hold.authenticated;
      await endSession(client);
      hold.release();
      stream = await opening;
      expect(stream.status).toBe(200);
      // The window was hit: the notice went out before this stream listened for it.
      expect(noticeSent).toHaveBeenCalledTimes(1);
      expect(listened).toHaveBeenCalledTimes(1);
      expect(noticeSent.mock.invocationCallOrder[0]).toBeLessThan(listened.mock.invocationCallOrder[0]!);
      await endsWithin(stream, `the stream of a session that ${_}`);
    } finally {
      hold.release();
      (stream ?? (await opening)).close();
    }
  });

  it('a stream whose session lives on stays open after the check and hears the next change', async () => {
    const client = await signedIn(server, 'jamie');
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const checksBefore = aliveChecks();
    const stream = await openStream(server, client);
    try {
      await stream.waitFor(/: connected/, WAIT_MS);
      await vi.waitFor(() => expect(aliveChecks()).toBe(checksBefore + 1), { timeout: WAIT_MS });
      const res = await postForm(server.base, client, '/api/v1/projects/residents/journal/entries', [['description', 'Still listening']]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await stream.waitFor(/event: change\ndata: \{"collections":\["journal"\]\}/, WAIT_MS);
      let ended = false;
      void stream.ended.then(() => (ended = true));
      await Promise.resolve();
      expect(ended).toBe(false);
    } finally {
      stream.close();
    }
  });
});
