import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../server/lib/crypto';
import { appConfigResponseSchema, CSRF_COOKIE, SESSION_COOKIE } from '../../src/contract/app-config';
import { loginResponseSchema } from '../../src/contract/auth';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { allRoutes, paths } from '../../src/contract/paths';
import type { Client } from './support/client';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('CSRF and sessions', () => {
  it('csrf-cookie creates a guest session and a readable XSRF-TOKEN', async () => {
    const client = server.client();
    const res = await client.get('/api/auth/csrf-cookie');
    expect(res.status).toBe(204);
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE);
    const xsrf = res.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(session?.attributes.httponly).toBe(true);
    expect(session?.attributes.samesite).toBe('Lax');
    expect(session?.attributes.path).toBe('/');
    expect(session?.attributes.secure).toBeUndefined();
    expect(xsrf?.attributes.httponly).toBeUndefined();
    expect(xsrf?.attributes.samesite).toBe('Lax');
    // Only the hash is stored.
    const row = await server.db.selectFrom('sessions').select(['state', 'user_id']).where('token_hash', '=', sha256(session!.value)).executeTakeFirst();
    expect(row).toEqual({ state: 'guest', user_id: null });
  });

  it('marks cookies Secure when the request came over https through a trusted proxy', async () => {
    const proxied = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    try {
      const res = await proxied.client().get('/api/auth/csrf-cookie', { 'x-forwarded-proto': 'https' });
      expect(res.cookies.every((c) => c.attributes.secure === true)).toBe(true);
      expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    } finally {
      await proxied.close();
    }
  });

  it('answers 419 without the X-XSRF-TOKEN header, or with a wrong one', async () => {
    const client = server.client();
    await client.csrf();
    const missing = await client.post('/api/auth/login', { username: 'jamie', password: 'hearth-demo-1', client_site: 'demo' }, { csrf: false });
    expect(missing.status).toBe(419);
    expect(missing.body).toEqual({ success: false, message: 'Session expired' });
    const token = client.jar.get(CSRF_COOKIE)!;
    const tampered = `${token.split('.')[0]}.${'A'.repeat(43)}`;
    client.jar.set(CSRF_COOKIE, tampered);
    const wrong = await client.post('/api/auth/login', { username: 'jamie', password: 'hearth-demo-1', client_site: 'demo' });
    expect(wrong.status).toBe(419);
  });

  it('rejects a token minted for another session', async () => {
    const a = server.client();
    const b = server.client();
    await a.csrf();
    await b.csrf();
    a.jar.set(CSRF_COOKIE, b.jar.get(CSRF_COOKIE)!);
    const res = await a.login('jamie', 'hearth-demo-1');
    expect(res.status).toBe(419);
  });

  it('finding 5: a percent-encoded path (/%61pi/...) gets the same CSRF check, session and no-store as /api/...', async () => {
    // No cookie, no X-XSRF-TOKEN: the router reads /%61pi/auth/login as /api/auth/login.
    const login = await server.client().post('/%61pi/auth/login', { username: 'jamie', password: 'hearth-demo-1', client_site: 'demo' }, { csrf: false });
    expect(login.status).toBe(419);
    expect(login.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(login.headers.get('cache-control')).toBe('no-store');
    // A signed-in person's reads through the encoded path are the API's: session known, never cached.
    const jamie = server.client();
    expect((await jamie.login('jamie', 'hearth-demo-1')).status).toBe(200);
    const user = await jamie.get('/%61pi/v1/auth/user');
    expect(user.status).toBe(200);
    expect(user.headers.get('cache-control')).toBe('no-store');
    // An unknown encoded API path is the API's JSON 404, not the PWA shell.
    const unknown = await jamie.get('/%61pi/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false });
  });

  it('answers 419 on a write without any session', async () => {
    const res = await server.client().post('/api/auth/logout', {});
    expect(res.status).toBe(419);
  });

  it('answers 401 on protected routes without a session', async () => {
    const res = await server.client().get('/api/v1/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Please sign in' });
  });

  it('answers 401 with a guest session', async () => {
    const client = server.client();
    await client.csrf();
    expect((await client.get('/api/v1/users/types')).status).toBe(401);
  });
});

describe('a session short of a full sign-in reaches no data', () => {
  /** Every /v1 route of the table with each method Fastify serves it with, ids made up. */
  const v1Requests = () =>
    allRoutes()
      .filter((route) => route.pattern.startsWith('/v1/'))
      .flatMap((route) => {
        const path = route.pattern.replace(/:method\b/, 'email').replace(/:\w+/g, '0190a000-0000-7000-8000-000000000001');
        return (['GET', 'POST', 'PUT', 'DELETE'] as const)
          .filter((method) => server.app.hasRoute({ method, url: `/api${route.pattern}` }))
          // Updates are POSTs with the override (SPEC §7); a create ignores it.
          .map((method) => ({ method, path: `/api${path}${method === 'POST' ? '?_method=PUT' : ''}`, pattern: route.pattern }));
      });
  const answers = async (client: Client) => {
    const got: Record<string, number> = {};
    for (const { method, path } of v1Requests()) {
      got[`${method} ${path}`] = (await client.request(method, path, method === 'GET' ? {} : { json: {} })).status;
    }
    return got;
  };

  it('the password alone, of someone with two-factor: 401 on every route', async () => {
    const client = server.client();
    expect((await client.login('riley', 'hearth-demo-1')).body.data.mfa_required).toBe(true);
    const got = await answers(client);
    expect(Object.keys(got).length).toBeGreaterThan(40);
    expect(Object.entries(got).filter(([, status]) => status !== 401)).toEqual([]);
  });

  it('a session that must still set two-factor up: 403 on every route but its account and the shared lists', async () => {
    const client = server.client();
    expect((await client.login('alex', 'hearth-demo-1', 'northfield')).body.data.mfa_setup_required).toBe(true);
    const allowed = new Set([paths.account, paths.userTypes, paths.userThemes].map((route) => `GET /api${route.pattern}`));
    const got = await answers(client);
    expect(Object.entries(got).filter(([request, status]) => status !== (allowed.has(request) ? 200 : 403))).toEqual([]);
  });
});

describe('login', () => {
  it('signs in with a new session token (rotation) and a fresh XSRF token', async () => {
    const client = server.client();
    await client.csrf();
    const guestToken = client.jar.get(SESSION_COOKIE)!;
    const guestXsrf = client.jar.get(CSRF_COOKIE)!;
    const res = await client.login('jamie', 'hearth-demo-1');
    expect(res.status).toBe(200);
    expect(loginResponseSchema.parse(res.body).data).toEqual({
      mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: false,
    });
    const newToken = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(newToken.value).not.toBe(guestToken);
    expect(newToken.attributes.httponly).toBe(true);
    expect(newToken.attributes.samesite).toBe('Lax');
    expect(client.jar.get(CSRF_COOKIE)).not.toBe(guestXsrf);
    // The guest row is gone.
    const old = await server.db.selectFrom('sessions').select('id').where('token_hash', '=', sha256(guestToken)).executeTakeFirst();
    expect(old).toBeUndefined();
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
  });

  it('username is case-insensitive', async () => {
    const res = await server.client().login('JAMIE', 'hearth-demo-1');
    expect(res.status).toBe(200);
  });

  it('wrong password: 422 with the chosen message and no field hint', async () => {
    const res = await server.client().login('jamie', 'not-the-password');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: chosen.invalidCredentials });
  });

  it('unknown user: the same answer', async () => {
    const res = await server.client().login('nobody', 'hearth-demo-1');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: chosen.invalidCredentials });
  });

  it('unknown site: 422 with errors.client_site', async () => {
    const res = await server.client().login('jamie', 'hearth-demo-1', 'nowhere');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: chosen.unknownSite, errors: { client_site: [chosen.unknownSite] } });
  });

  it('the site name is tenant-scoped: jamie does not exist at northfield', async () => {
    const res = await server.client().login('jamie', 'hearth-demo-1', 'northfield');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(chosen.invalidCredentials);
  });

  it('employees may sign in (the PWA refuses them itself)', async () => {
    const client = server.client();
    expect((await client.login('carer.ali', 'hearth-demo-1')).status).toBe(200);
    const me = await client.get<{ user: { user_type: { system_name: string } } }>('/api/v1/auth/user');
    expect(me.body.user.user_type.system_name).toBe('employee');
  });

  it('schema-invalid bodies: 422 with field errors', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.post('/api/auth/login', { username: '', client_site: 'Bad Site!' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      message: chosen.validationFailed,
      errors: { username: ['Username is required'], password: ['Password is required'], client_site: [chosen.unknownSite] },
    });
    const empty = await client.request('POST', '/api/auth/login');
    expect(empty.status).toBe(422);
    expect(Object.keys((empty.body as { errors: object }).errors)).toEqual(expect.arrayContaining(['username', 'password', 'client_site']));
  });

  it('malformed JSON: 422, never 500', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.request('POST', '/api/auth/login', { body: '{"username": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'The request body is not valid JSON' });
  });

  it('wrong content type: 415', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.request('POST', '/api/auth/login', { body: 'username=jamie', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ success: false });
  });

  it('body too large: 413', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.post('/api/auth/login', { username: 'x'.repeat(2 * 1024 * 1024), password: 'x', client_site: 'demo' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false });
  });
});

describe('logout', () => {
  it('kills the session server-side and hands out a new guest XSRF token', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    const signedIn = client.jar.get(SESSION_COOKIE)!;
    const res = await client.post('/api/auth/logout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: chosen.loggedOut });
    expect(res.cookies.some((c) => c.name === CSRF_COOKIE)).toBe(true);
    expect(client.jar.get(SESSION_COOKIE)).not.toBe(signedIn);
    expect((await client.get('/api/v1/auth/user')).status).toBe(401);
    // Replaying the old cookie does not work either.
    const replay = server.client();
    replay.jar.set(SESSION_COOKIE, signedIn);
    expect((await replay.get('/api/v1/auth/user')).status).toBe(401);
    // The new guest token works for the next sign-in.
    expect((await client.login('jamie', 'hearth-demo-1')).status).toBe(200);
  });
});

describe('session lifetime', () => {
  it('an idle-expired session answers 401', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    const hash = sha256(client.jar.get(SESSION_COOKIE)!);
    await server.db.updateTable('sessions').set({ idle_expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hash).execute();
    expect((await client.get('/api/v1/auth/user')).status).toBe(401);
  });

  it('a session past its absolute lifetime answers 401', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    const hash = sha256(client.jar.get(SESSION_COOKIE)!);
    await server.db.updateTable('sessions').set({ absolute_expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hash).execute();
    expect((await client.get('/api/v1/auth/user')).status).toBe(401);
  });

  it('signed-in sessions last 24 h idle and 14 days at most', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    const row = await server.db.selectFrom('sessions').selectAll().where('token_hash', '=', sha256(client.jar.get(SESSION_COOKIE)!)).executeTakeFirstOrThrow();
    const idleHours = (row.idle_expires_at.getTime() - Date.now()) / 3600_000;
    const absoluteDays = (row.absolute_expires_at.getTime() - Date.now()) / 86400_000;
    expect(idleHours).toBeGreaterThan(23.9);
    expect(idleHours).toBeLessThanOrEqual(24);
    expect(absoluteDays).toBeGreaterThan(13.99);
    expect(absoluteDays).toBeLessThanOrEqual(14);
  });
});

describe('plumbing', () => {
  it('GET /api/app-config', async () => {
    const res = await server.client().get('/api/app-config');
    expect(res.status).toBe(200);
    expect(appConfigResponseSchema.parse(res.body).data).toEqual({
      product_name: 'Hearth',
      regions: [{ name: 'United Kingdom', api_base: '/api' }],
      default_region: 'United Kingdom',
      default_site: 'demo',
      dev_mailbox: false,
      push_public_key: server.config.vapid.publicKey,
    });
    expect(server.config.vapid.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('GET /api/health checks the database', async () => {
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });

  it('unknown /api path: 404 JSON', async () => {
    const res = await server.client().get('/api/v1/nothing-here', { accept: 'text/html' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Not found' });
  });

  it('the development mailbox does not exist outside development', async () => {
    const res = await server.client().get('/api/dev/mailbox');
    expect(res.status).toBe(404);
  });

  it('API answers are never cached', async () => {
    const res = await server.client().get('/api/app-config');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('the PWA shell has a strict CSP and the security headers', async () => {
    const res = await server.client().get('/', { accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
      "media-src 'self' blob:", "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'", "frame-ancestors 'none'", "object-src 'none'",
      "base-uri 'none'", "form-action 'self'",
    ]) expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('permissions-policy')).toBe('camera=(self), microphone=(), geolocation=()');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('SPA fallback: unknown paths that want HTML get index.html with 200', async () => {
    const res = await server.client().get('/journal/edit/123', { accept: 'text/html,application/xhtml+xml' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Hearth</title>');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const notHtml = await server.client().get('/missing.png', { accept: 'image/png' });
    expect(notHtml.status).toBe(404);
  });

  it('hashed assets are immutable, the service worker is revalidated', async () => {
    const asset = await server.client().get('/assets/index-abc123.js', { accept: '*/*' });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sw = await server.client().get('/sw.js', { accept: '*/*' });
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it('adds absolute region API origins to connect-src', async () => {
    const other = await startTestServer({ env: { REGIONS: JSON.stringify([{ name: 'United Kingdom', api_base: '/api' }, { name: 'Ireland', api_base: 'https://{site}.ie.example.org/api' }]) } });
    try {
      const res = await other.client().get('/', { accept: 'text/html' });
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' https://*.ie.example.org");
    } finally {
      await other.close();
    }
  });
});
