/**
 * The real server in-process (PGlite, demo seed) with src/api pointed at it: the base address is
 * injected with setApiBase, and Node's fetch (no cookie jar) is wrapped so requests to the server
 * carry the session cookies of a signed-in test client. Every request is recorded for assertions.
 */
import { configureRetryPolicy } from '@/api/client';
import { setApiBase } from '@/api/base-address';
import { getAccount } from '@/api/users/get-account';
import type { Account } from '@/contract/users';
import { CSRF_COOKIE } from '@/contract/app-config';
import type { Client } from '../../server/support/client';
import { startTestServer, type TestServer } from '../../server/support/server';

export interface RecordedRequest {
  method: string;
  url: URL;
  status: number;
  /** Rows in a page answer (`data` array length), when there was one. */
  rows: number | null;
}

export interface SyncTestServer {
  server: TestServer;
  requests: RecordedRequest[];
  /** Signs in through the server's real login and makes src/api use that session. */
  signIn(username?: string): Promise<Account>;
  /** Forgets the session cookies (the next request answers 401). */
  dropCookies(): void;
  /** The signed-in client's anti-forgery token (the XSRF-TOKEN cookie), for the outbox's writes. */
  csrfToken(): string | null;
  close(): Promise<void>;
}

export async function startSyncServer(options: Parameters<typeof startTestServer>[0] = {}): Promise<SyncTestServer> {
  const server = await startTestServer(options);
  const requests: RecordedRequest[] = [];
  let client: Client | null = null;
  const original = globalThis.fetch;

  const wrapped: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== server.base) return original(input, init);
    const headers = new Headers(init?.headers);
    // A test's own client (staff through tests/server/support/client.ts) sends its own cookies.
    if (client && client.jar.size > 0 && !headers.has('cookie')) headers.set('cookie', [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await original(url, { ...init, headers, credentials: undefined });
    let rows: number | null = null;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      const body = (await response.clone().json().catch(() => null)) as { data?: unknown } | null;
      rows = Array.isArray(body?.data) ? body.data.length : null;
    }
    requests.push({ method: init?.method ?? 'GET', url, status: response.status, rows });
    return response;
  };
  globalThis.fetch = wrapped;
  setApiBase(`${server.base}/api`);
  configureRetryPolicy({ retries: 0, baseDelayMs: 1, maxDelayMs: 5 });

  return {
    server,
    requests,
    async signIn(username = 'jamie') {
      client = server.client();
      const res = await client.login(username, 'hearth-demo-1', 'demo');
      if (res.status !== 200) throw new Error(`login answered ${res.status}`);
      const account = await getAccount();
      if (!account.ok) throw new Error(`GET /v1/auth/user answered ${account.status}`);
      return account.data;
    },
    dropCookies() {
      client?.jar.clear();
    },
    csrfToken() {
      return client?.jar.get(CSRF_COOKIE) ?? null;
    },
    async close() {
      globalThis.fetch = original;
      setApiBase('/api');
      await server.close();
    },
  };
}

/** Polls until `check` returns true (or throws after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
