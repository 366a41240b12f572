import { CSRF_COOKIE_NAME } from '@/contract/http';
import { paths } from '@/contract/paths';
import { retryAfterMs } from '@/contract/retry-after';
import { reachMessage } from '@/data/outbox/reach-message';
import type { Transport, TransportResponse } from '@/data/outbox/replay';
import { postToPages } from './page-channel';

/** What this module uses of the worker's scope, by shape, so the page's unit tests can load it. */
declare const self: { readonly location: { readonly origin: string }; readonly cookieStore?: CookieStore };

/**
 * The worker's transport for the outbox.
 *
 * CSRF: a worker cannot read document.cookie. In order:
 * 1. the Cookie Store API (`self.cookieStore`, Chromium workers): the XSRF-TOKEN cookie itself,
 *    after GET {base}/auth/csrf-cookie when it is missing (the session cookie travels with it);
 * 2. the token the page passed with its last flush/resume message (kept in memory only);
 * 3. otherwise null: the replayer stops and asks a page to replay (`outbox:need-page`).
 *
 * Each write's outcome goes to the open pages (./page-channel.ts, src/data/outbox/reach-message.ts):
 * any HTTP answer means the server is there, a network failure (or no answer before the replayer's
 * timeout aborts the request) counts towards "unreachable", as the page's own transport reports.
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
  const store = self.cookieStore;
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
    const url = new URL(request.url, self.location.origin);
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        credentials: 'include',
        cache: 'no-store',
        signal: request.signal,
      });
    } catch {
      postToPages(reachMessage(url.href, false));
      return { status: 0, body: null };
    }
    postToPages(reachMessage(url.href, true));
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
