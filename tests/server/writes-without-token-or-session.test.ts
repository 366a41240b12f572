import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../src/contract/app-config';
import { journalPageSchema } from '../../src/contract/entries';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { allRoutes, entryPaths, paths } from '../../src/contract/paths';
import { residentDetailsResponseSchema } from '../../src/contract/residents';
import { rewardPageSchema } from '../../src/contract/rewards';
import { pointsPageSchema } from '../../src/contract/tasks';
import { sha256 } from '../../server/lib/crypto';
import type { Client } from './support/client';
import { DEMO_PASSWORD, demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * Every write route of the table (read from Fastify, so a route added later is covered without
 * anyone listing it), as a forged page or a stale browser would send it: no anti-forgery header,
 * a header that is not the cookie, the token of another session (cookie tossing), a session that
 * ended (signed out here, or expired). auth-session.test.ts proves each rule on one route; here
 * every write route answers it, and writes that would otherwise succeed store nothing.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  [jamie, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
});
afterAll(async () => {
  await server?.close();
});

const MADE_UP = '0190a000-0000-7000-8000-000000000001';

/** Every write of the data API (below /v1/), with each method Fastify serves it with; ids made up, updates with the override. */
function writes() {
  return allRoutes()
    .filter((route) => route.pattern.startsWith('/v1/'))
    .flatMap((route) => {
      const path = route.pattern.replace(/:method\b/, 'email').replace(/:\w+/g, MADE_UP);
      return (['POST', 'PUT', 'PATCH', 'DELETE'] as const)
        .filter((method) => server.app.hasRoute({ method, url: `/api${route.pattern}` }))
        .map((method) => ({ method, path: `/api${path}${method === 'POST' ? '?_method=PUT' : ''}` }));
    });
}

type Send = (client: Client, method: string, path: string) => Promise<{ status: number; body: unknown }>;

/** The statuses of every write sent by `client` in the way `send` sends it, keyed by request. */
async function statuses(client: Client, send: Send) {
  const got: Record<string, number> = {};
  for (const { method, path } of writes()) got[`${method} ${path}`] = (await send(client, method, path)).status;
  return got;
}
const wrong = (got: Record<string, number>, expected: number) => Object.entries(got).filter(([, status]) => status !== expected);

const noHeader: Send = (client, method, path) => client.request(method, path, { json: {}, csrf: false });

describe('every write without a valid anti-forgery token is a 419', () => {
  it('covers the routes of the table', () => {
    // A guard: the table holds the wave's writes too (objectives, rewards, documents, features, home moves).
    const keys = writes().map((w) => `${w.method} ${w.path}`);
    expect(keys.length).toBeGreaterThan(25);
    for (const route of [paths.residentFeatures, paths.residentHome, paths.rewardExchangeDeny, paths.documentSubmissions, paths.taskLog, paths.reward]) {
      expect(keys.some((key) => key.includes(route.build(MADE_UP))), route.pattern).toBe(true);
    }
  });

  it('without the header, as a young person and as staff', async () => {
    for (const client of [jamie, ali]) {
      expect(wrong(await statuses(client, noHeader), 419)).toEqual([]);
    }
    const one = await noHeader(jamie, 'POST', `/api${entryPaths.journal.entries.build()}`);
    expect(one.body).toEqual({ success: false, message: chosen.csrfMissing });
  });

  it('with a header that is not the cookie', async () => {
    const mismatched: Send = (client, method, path) => client.request(method, path, { json: {}, headers: { [CSRF_HEADER]: `${client.jar.get(CSRF_COOKIE)}x` } });
    expect(wrong(await statuses(jamie, mismatched), 419)).toEqual([]);
  });

  it('with the token of another session, in the cookie and the header (cookie tossing)', async () => {
    const sam = await signedIn(server, 'sam');
    const tossed: Send = (client, method, path) => {
      const token = sam.jar.get(CSRF_COOKIE)!;
      const cookie = `${SESSION_COOKIE}=${client.jar.get(SESSION_COOKIE)}; ${CSRF_COOKIE}=${token}`;
      return client.request(method, path, { json: {}, headers: { cookie, [CSRF_HEADER]: token } });
    };
    expect(wrong(await statuses(ali, tossed), 419)).toEqual([]);
  });
});

describe('every write of a session that ended is refused', () => {
  it('signed out in this browser (its new guest session and token): 401', async () => {
    const client = await signedIn(server, 'jamie');
    expect((await client.post('/api/auth/logout', {})).status).toBe(200);
    const got = await statuses(client, (c, method, path) => c.request(method, path, { json: {} }));
    expect(wrong(got, 401)).toEqual([]);
  });

  it('a copy of the cookies kept from before the sign-out, or a session past its expiry: 419, the token has no session', async () => {
    const client = await signedIn(server, 'carer.ali');
    const copy = new Map(client.jar);
    expect((await client.post('/api/auth/logout', {})).status).toBe(200);
    const stale: Send = (_c, method, path) => {
      const replay = server.client();
      for (const [name, value] of copy) replay.jar.set(name, value);
      return replay.request(method, path, { json: {} });
    };
    expect(wrong(await statuses(client, stale), 419)).toEqual([]);

    const expired = await signedIn(server, 'jamie');
    await server.db.updateTable('sessions').set({ idle_expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', sha256(expired.jar.get(SESSION_COOKIE)!)).execute();
    expect(wrong(await statuses(expired, (c, method, path) => c.request(method, path, { json: {} })), 419)).toEqual([]);
    expect((await expired.get(`/api${paths.account.build()}`)).status).toBe(401);
  });
});

describe('writes that would succeed store nothing without the token', () => {
  it('an entry, an exchange, a feature switch and a password change', async () => {
    const jamieId = ids.resident['demo/jamie']!;
    const balance = async () => pointsPageSchema.parse((await jamie.get(`/api${paths.residentPoints.build(jamieId)}`)).body).balance;
    const details = async () => residentDetailsResponseSchema.parse((await jamie.get(`/api${paths.resident.build(jamieId)}`)).body).data;
    const before = { balance: await balance(), details: await details() };
    const reward = rewardPageSchema.parse((await jamie.get(`/api${paths.rewards.build()}`)).body).data.find((r) => r.active && r.points <= before.balance)!;

    const attempts = [
      jamie.post(`/api${entryPaths.journal.entries.build()}`, { description: 'Forged from another page' }, { csrf: false }),
      jamie.post(`/api${paths.rewardExchange.build(jamieId, reward.id)}`, {}, { csrf: false }),
      ali.request('PUT', `/api${paths.residentFeatures.build(jamieId)}`, { json: { journal_enabled: 0 }, csrf: false }),
      jamie.request('PUT', `/api${paths.changePassword.build(ids.user['demo/jamie']!)}`, { json: { current: DEMO_PASSWORD, password: 'a-forged-password-1', password_confirmation: 'a-forged-password-1' }, csrf: false }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(419);

    const entries = journalPageSchema.parse((await jamie.get(`/api${entryPaths.journal.entries.build()}?search_term=Forged`)).body).data;
    expect(entries).toEqual([]);
    expect(await balance()).toBe(before.balance);
    expect(await details()).toEqual(before.details);
    expect((await server.client().login('jamie', DEMO_PASSWORD)).status).toBe(200);
  });
});
