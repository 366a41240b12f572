import { CSRF_COOKIE, CSRF_HEADER } from '../../../src/contract/app-config';

/** A cookie as the server set it, with its attributes, for assertions. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...parts] = header.split(';').map((p) => p.trim());
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const part of parts) {
    const i = part.indexOf('=');
    if (i === -1) attributes[part.toLowerCase()] = true;
    else attributes[part.slice(0, i).toLowerCase()] = part.slice(i + 1);
  }
  return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes };
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  cookies: SetCookie[];
}

/**
 * A browser-like HTTP client: keeps cookies (one jar per client) and sends the CSRF header from
 * the XSRF-TOKEN cookie on unsafe methods, like the PWA's api client does.
 */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(readonly base: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { json?: unknown; body?: string; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const unsafe = !['GET', 'HEAD'].includes(method);
    const xsrf = this.jar.get(CSRF_COOKIE);
    if (unsafe && options.csrf !== false && xsrf && !(CSRF_HEADER in headers)) headers[CSRF_HEADER] = xsrf;
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, body, redirect: 'manual' });
    const cookies = response.headers.getSetCookie().map(parseSetCookie);
    for (const cookie of cookies) {
      const expired = cookie.attributes['max-age'] === '0' || (typeof cookie.attributes.expires === 'string' && Date.parse(cookie.attributes.expires) < Date.now());
      if (expired || cookie.value === '') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, cookies };
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = Record<string, unknown>>(path: string, json?: unknown, options: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    return this.request<T>('POST', path, { json, ...options });
  }
  put<T = Record<string, unknown>>(path: string, json?: unknown) {
    return this.request<T>('PUT', path, { json });
  }

  /** GET /api/auth/csrf-cookie, as the PWA does before any write. */
  async csrf(): Promise<void> {
    const res = await this.get('/api/auth/csrf-cookie');
    if (res.status !== 204) throw new Error(`csrf-cookie answered ${res.status}`);
  }

  async login(username: string, password: string, site = 'demo') {
    if (!this.jar.has(CSRF_COOKIE)) await this.csrf();
    return this.post<{ success: boolean; message?: string; data: { mfa_required: boolean; two_factor_id: string | null; methods: string[]; mfa_methods: string[]; mfa_setup_required: boolean }; errors?: Record<string, string[]> }>(
      '/api/auth/login',
      { username, password, client_site: site },
    );
  }
}
