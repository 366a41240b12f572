import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  /** Path relative to the API base, e.g. `/auth/login` (the `/api` prefix removed). */
  path: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A well-formed VAPID public key (base64url, 65 bytes), as GET /api/app-config gives one. */
export const FAKE_PUSH_PUBLIC_KEY = 'BKOW5QQZFwnTUlSNeS0mrnO2e0tuf_MNHc-a6LVa_D0opt9rs2eZb9iMv_GxULSWp4P4sDnM9xFnU5BzH0tfZrY';

export type Handler = (request: FakeRequest) => Response | Promise<Response> | undefined;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/**
 * Stubs global fetch (the only mock these tests use). The handler answers what it knows; the
 * defaults answer the app config and the CSRF cookie like the real server; anything else is a 404.
 */
export function fakeFetch(handler: Handler = () => undefined) {
  const calls: FakeRequest[] = [];
  const mock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const request: FakeRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.replace(/^\/api/, '').split('?')[0] ?? url,
      url,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(request);
    const answer = await handler(request);
    if (answer) return answer;
    if (request.path === '/app-config') {
      return json(200, {
        success: true,
        data: {
          product_name: 'Hearth',
          regions: [{ name: 'United Kingdom', api_base: '/api' }],
          default_region: 'United Kingdom',
          default_site: 'demo',
          dev_mailbox: false,
          push_public_key: FAKE_PUSH_PUBLIC_KEY,
        },
      });
    }
    if (request.path === '/auth/csrf-cookie') {
      document.cookie = 'XSRF-TOKEN=token%3Dfrom-server; path=/';
      return new Response(null, { status: 204 });
    }
    if (request.path === '/auth/logout') return json(200, { success: true });
    return json(404, { success: false, message: 'Not found' });
  });
  vi.stubGlobal('fetch', mock);
  return { calls, mock, writes: () => calls.filter((c) => c.method !== 'GET' && c.method !== 'HEAD') };
}
