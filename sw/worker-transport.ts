import { CSRF_COOKIE_NAME } from '@/contract/http';
import { paths } from '@/contract/paths';
import { retryAfterMs } from '@/contract/retry-after';
import type { Transport, TransportResponse } from '@/data/outbox/replay';

declare const self: ServiceWorkerGlobalScope;

/**
 * The worker's transport for the outbox.
 *
 * CSRF: a worker cannot read document.cookie. In order:
 * 1. the Cookie Store API (`self.cookieStore`, Chromium workers): the XSRF-TOKEN cookie itself,
 *    after GET {base}/auth/csrf-cookie when it is missing (the session cookie travels with it);
 * 2. the token the page passed with its last flush/resume message (kept in memory only);
 * 3. otherwise null: the replayer stops and asks a page to replay (`outbox:need-page`).
 */
let pageToken: string | null = null;

export function rememberPageToken(token: string | null): void {
  if (token) pageToken = token;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function cookieStoreToken(base: string): Promise<string | null> {
  const store = (self as { cookieStore?: CookieStore }).cookieStore;
  if (!store || typeof store.get !== 'function') return null;
  try {
    const cookie = await store.get(CSRF_COOKIE_NAME);
    if (cookie?.value) return decode(cookie.value);
    await fetch(new URL(`${base}${paths.csrfCookie.build()}`, self.location.origin), {
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
    const fresh = await store.get(CSRF_COOKIE_NAME);
    return fresh?.value ? decode(fresh.value) : null;
  } catch {
    return null;
  }
}

export const workerTransport: Transport = {
  async csrfToken(base) {
    return (await cookieStoreToken(base)) ?? pageToken;
  },
  async send(request): Promise<TransportResponse> {
    let response: Response;
    try {
      response = await fetch(new URL(request.url, self.location.origin), {
        method: request.method,
        headers: request.headers,
        body: request.body,
        credentials: 'include',
        cache: 'no-store',
        signal: request.signal,
      });
    } catch {
      return { status: 0, body: null };
    }
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    try {
      body = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      body = null;
    }
    // A 419 means the token we used is stale: forget the page's copy.
    if (response.status === 419) pageToken = null;
    return { status: response.status, body, retryAfterMs: retryAfterMs(response.headers.get('Retry-After')) };
  },
};
