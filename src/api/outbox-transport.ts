import { CSRF_COOKIE_NAME } from '@/contract/http';
import { retryAfterMs } from '@/contract/retry-after';
import { getCsrfCookie } from './auth/csrf-cookie';
import { readCookie } from './cookies';
import { csrfExpired, sessionExpired, trackRequest } from './events';
import { noteAnswered, noteNetworkFailure } from './reachability';

/**
 * The page's transport for the outbox (src/data/outbox replays through it when no service worker
 * controls the page). Only src/api and sw/ call fetch (ARCHITECTURE rule 2): the outbox builds
 * the request, this sends it exactly as built (headers include Idempotency-Key and the token).
 */

export interface OutboxHttpRequest {
  readonly method: 'POST' | 'PUT';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | FormData;
  readonly signal?: AbortSignal;
}

export interface OutboxHttpResponse {
  readonly status: number;
  readonly body: unknown;
  readonly retryAfterMs: number | null;
}

/** The XSRF-TOKEN cookie, fetching /auth/csrf-cookie first when it is missing. Null offline. */
export async function outboxCsrfToken(_base: string): Promise<string | null> {
  const current = readCookie(CSRF_COOKIE_NAME);
  if (current) return current;
  await getCsrfCookie();
  return readCookie(CSRF_COOKIE_NAME);
}

export async function sendOutboxRequest(request: OutboxHttpRequest): Promise<OutboxHttpResponse> {
  trackRequest(1);
  try {
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        credentials: 'include',
        signal: request.signal,
      });
    } catch {
      // The outbox's own signal is its send timeout: no answer in time is a network failure too.
      noteNetworkFailure();
      return { status: 0, body: null, retryAfterMs: null };
    }
    noteAnswered();
    const text = await response.text().catch(() => '');
    let body: unknown = null;
    try {
      body = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      body = null;
    }
    // The session is gone: tell the app, as the HTTP client does (local data is kept).
    if (response.status === 401 || response.status === 419) {
      if (response.status === 419) csrfExpired.emit();
      sessionExpired.emit({ status: response.status });
    }
    return { status: response.status, body, retryAfterMs: retryAfterMs(response.headers.get('Retry-After')) };
  } finally {
    trackRequest(-1);
  }
}
