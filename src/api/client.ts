import { paths } from '@/contract/paths';
import type { z } from 'zod';
import type { ErrorBody } from '@/contract/envelope';
import { CSRF_COOKIE_NAME as CSRF_COOKIE, CSRF_HEADER_NAME as CSRF_HEADER } from '@/contract/http';
import { retryAfterMs } from '@/contract/retry-after';
import { getApiBase } from './base-address';
import { readCookie } from './cookies';
import { csrfExpired, sessionExpired, trackRequest } from './events';
import { noteAnswered, noteNetworkFailure } from './reachability';
import type { Result } from './result';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: Method;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart (fetch sets the boundary); instead of `body`. */
  form?: FormData;
  /** Parses a successful JSON answer; a mismatch is reported as a failure with an empty message. */
  schema?: z.ZodType<T>;
  responseType?: 'json' | 'blob';
  /** Retries for 408/409/425/429/5xx. Default: policy.retries for GET/HEAD, 0 for writes. */
  retries?: number;
  /** 0 (the default) means no timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Overrides the region's base address (the app config always comes from the PWA's origin). */
  base?: string;
  /** Auth calls made before a session exists: a 401 there does not expire anything. */
  skipSessionHandling?: boolean;
  /** Extra request headers (a document's `Range`). */
  headers?: Record<string, string>;
  /** Work in the background (keeping documents offline): not shown by the top loading bar. */
  quiet?: boolean;
}

export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export const retryPolicy = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/** Tests and the dev page may tune the policy. */
export function configureRetryPolicy(policy: Partial<typeof retryPolicy>): void {
  Object.assign(retryPolicy, policy);
}

const isRead = (method: Method): boolean => method === 'GET' || method === 'HEAD';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function backoffMs(attempt: number): number {
  const exponential = retryPolicy.baseDelayMs * 2 ** attempt;
  const jitter = Math.random() * retryPolicy.baseDelayMs;
  return Math.min(retryPolicy.maxDelayMs, exponential + jitter);
}

let csrfRequest: Promise<void> | null = null;

/** GET /auth/csrf-cookie when the XSRF-TOKEN cookie is missing; concurrent writes share one call. */
async function ensureCsrfCookie(base: string): Promise<void> {
  if (readCookie(CSRF_COOKIE)) return;
  csrfRequest ??= fetch(`${base}${paths.csrfCookie.build()}`, { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => {
      csrfRequest = null;
    });
  await csrfRequest;
}

/**
 * The error body `{success:false, message, errors?}`, checked by hand: the entry chunk stays free of
 * zod (the contract's errorBodySchema describes the same shape).
 */
function asErrorBody(body: unknown): ErrorBody | null {
  if (!body || typeof body !== 'object') return null;
  const { success, message, errors } = body as Record<string, unknown>;
  if (success !== false || typeof message !== 'string') return null;
  if (errors === undefined || errors === null) return { success, message };
  if (typeof errors !== 'object') return null;
  const fields: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(errors)) {
    if (Array.isArray(value)) fields[key] = value.filter((v): v is string => typeof v === 'string');
  }
  return { success, message, errors: fields };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The one door to the network. Resolves to a Result; never rejects for HTTP or network failures. */
export async function request<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<Result<T>> {
  const method = options.method ?? 'GET';
  const base = options.base ?? getApiBase();
  const url = /^https?:\/\//.test(path) ? path : `${base}${path}`;
  const retries = options.retries ?? (isRead(method) ? retryPolicy.retries : 0);

  const track = options.quiet ? () => undefined : trackRequest;
  track(1);
  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (!isRead(method)) {
      await ensureCsrfCookie(base);
      const token = readCookie(CSRF_COOKIE);
      if (token) headers[CSRF_HEADER] = token;
    }

    let response: Response | null = null;
    for (let attempt = 0; ; attempt += 1) {
      const signals = [options.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
        (s): s is AbortSignal => Boolean(s),
      );
      try {
        response = await fetch(url, {
          method,
          headers,
          credentials: 'include',
          body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
          signal: signals.length ? AbortSignal.any(signals) : undefined,
        });
      } catch {
        // Called off by the caller: says nothing of the network. A timeout does.
        if (!options.signal?.aborted) noteNetworkFailure();
        return { ok: false, status: 0, message: '' };
      }
      noteAnswered();
      if (response.ok || attempt >= retries || !RETRY_STATUSES.has(response.status)) break;
      await sleep(Math.min(retryPolicy.maxDelayMs, retryAfterMs(response.headers.get('Retry-After')) ?? backoffMs(attempt)));
    }

    if (!response.ok) {
      if (!options.skipSessionHandling && (response.status === 401 || response.status === 419)) {
        if (response.status === 419) csrfExpired.emit();
        sessionExpired.emit({ status: response.status as 401 | 419 });
      }
      const error = asErrorBody(await readJson(response));
      return error
        ? { ok: false, status: response.status, message: error.message, errors: error.errors }
        : { ok: false, status: response.status, message: '' };
    }

    if (options.responseType === 'blob') {
      const blob = await response.blob().catch(() => null);
      return blob ? { ok: true, status: response.status, data: blob as T } : { ok: false, status: 0, message: '' };
    }

    const body = await readJson(response);
    if (!options.schema) return { ok: true, status: response.status, data: body as T };
    const parsed = options.schema.safeParse(body);
    if (parsed.success) return { ok: true, status: response.status, data: parsed.data };
    console.error(`Unexpected answer from ${method} ${path}`, parsed.error.issues);
    return { ok: false, status: response.status, message: '' };
  } finally {
    track(-1);
  }
}
