import { expect } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '../../../src/contract/app-config';
import type { Client } from './client';
import { DEMO_TOTP_SECRET } from '../../../server/seed/demo';
import { awayFromStepBoundary, totpCode, type TestServer } from './server';

export const DEMO_PASSWORD = 'hearth-demo-1';

/** A client signed in as a demo person (no two-factor). */
export async function signedIn(server: TestServer, username: string, site = 'demo'): Promise<Client> {
  const client = server.client();
  const res = await client.login(username, DEMO_PASSWORD, site);
  expect(res.status).toBe(200);
  return client;
}

/** Riley has an authenticator: a TOTP step works once, so sign her in once per test server. */
export async function signedInRiley(server: TestServer): Promise<Client> {
  const client = server.client();
  const res = await client.login('riley', DEMO_PASSWORD);
  expect(res.body.data.two_factor_id).toBeTruthy();
  await awayFromStepBoundary();
  const mfa = await client.post('/api/auth/mfa/login', { two_factor_id: res.body.data.two_factor_id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET) });
  expect(mfa.status).toBe(200);
  return client;
}

/** The demo people that server tests act as: [username, site]. Riley is apart (signedInRiley). */
const DEMO_PEOPLE = {
  jamie: ['jamie', 'demo'],
  sam: ['sam', 'demo'],
  ali: ['carer.ali', 'demo'],
  chris: ['carer.chris', 'demo'],
  priya: ['manager.priya', 'demo'],
  jo: ['carer.jo', 'northfield'],
  alex: ['alex', 'northfield'],
} as const;
type Always = 'jamie' | 'sam' | 'riley' | 'ali' | 'chris';
type Extra = Exclude<keyof typeof DEMO_PEOPLE, Always>;

/**
 * Young people Jamie, Sam (demo) and Riley, carers Ali (Willow House) and Chris (Cedar Lodge), and
 * whichever of `extra` a test needs (manager Priya; Northfield's carer Jo and young person Alex),
 * each signed in with a client of its own (cookie jar, CSRF token). A Northfield person needs a
 * fixture first: that site's policy (two-factor required) would hold them at set-up, so it is made
 * optional. Riley comes last, once: her authenticator step works once per test server.
 */
export async function signInDemoClients<E extends Extra = never>(server: TestServer, extra: readonly E[] = []): Promise<Record<Always | E, Client>> {
  const names: (keyof typeof DEMO_PEOPLE)[] = ['jamie', 'sam', 'ali', 'chris', ...extra];
  if (names.some((name) => DEMO_PEOPLE[name][1] === 'northfield')) {
    await server.db.updateTable('tenants').set({ mfa_policy: 'optional' }).where('slug', '=', 'northfield').execute();
  }
  const clients = await Promise.all(names.map((name) => signedIn(server, DEMO_PEOPLE[name][0], DEMO_PEOPLE[name][1])));
  const riley = await signedInRiley(server);
  return { ...Object.fromEntries(names.map((name, i) => [name, clients[i]!])), riley } as Record<Always | E, Client>;
}

/** The Cookie and CSRF headers a browser would send for this client. */
export function browserHeaders(client: Client): Record<string, string> {
  return {
    cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
    [CSRF_HEADER]: client.jar.get(CSRF_COOKIE) ?? '',
  };
}

/** Ids of the demo data: users by "site/username", residents by "site/username", homes by name. */
export async function demoIds(server: TestServer) {
  const users = await server.db.selectFrom('users').innerJoin('tenants', 'tenants.id', 'users.tenant_id').select(['users.id', 'users.username', 'tenants.slug']).execute();
  const residents = await server.db
    .selectFrom('residents')
    .innerJoin('users', 'users.id', 'residents.user_id')
    .innerJoin('tenants', 'tenants.id', 'residents.tenant_id')
    .select(['residents.id', 'users.username', 'tenants.slug'])
    .execute();
  const homes = await server.db.selectFrom('homes').select(['id', 'name']).execute();
  return {
    user: Object.fromEntries(users.map((u) => [`${u.slug}/${u.username}`, u.id])) as Record<string, string>,
    resident: Object.fromEntries(residents.map((r) => [`${r.slug}/${r.username}`, r.id])) as Record<string, string>,
    home: Object.fromEntries(homes.map((h) => [h.name, h.id])) as Record<string, string>,
  };
}

/** An open event stream read with fetch, as the PWA's EventSource would. */
export interface OpenStream {
  status: number;
  headers: Headers;
  /** Everything received so far. */
  text(): string;
  /** Resolves with the text once `pattern` has arrived; rejects after timeoutMs. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(server: Pick<TestServer, 'base'>, client: Client): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${server.base}/api/v1/sync/stream`, {
    headers: { cookie: browserHeaders(client).cookie!, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  let buffer = '';
  let markEnded: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const waiters: { pattern: RegExp; resolve: (text: string) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(buffer)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(buffer);
      }
    }
  };
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          check();
        }
      } catch {
        // aborted
      }
      markEnded();
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    text: () => buffer,
    ended,
    waitFor(pattern, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stream: ${pattern} did not arrive; got ${JSON.stringify(buffer)}`)), timeoutMs);
        waiters.push({ pattern, resolve: (text) => (clearTimeout(timer), resolve(text)) });
        check();
      });
    },
    close: () => controller.abort(),
  };
}
