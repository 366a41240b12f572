import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { devMailboxResponseSchema } from '../../src/contract/app-config';
import { startTestServer, type TestServer } from './support/server';

describe('per-IP password failures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { ipFailures: 3 } });
  });
  afterAll(async () => server?.close());

  it('locks the address after the limit, whichever accounts and sites were tried', async () => {
    expect((await server.client().login('jamie', 'wrong-1')).status).toBe(422);
    expect((await server.client().login('sam', 'wrong-2')).status).toBe(422);
    const third = await server.client().login('anyone', 'wrong-3', 'no-such-site');
    expect(third.status).toBe(429);
    const after = await server.client().login('jamie', 'hearth-demo-1');
    expect(after.status).toBe(429);
    expect(after.body.message).toBe(chosen.tooManyAttempts(15));
    expect(after.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('coarse rate limit on /api/auth/*', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { authRequestsPerMinute: 5 } });
  });
  afterAll(async () => server?.close());

  it('answers 429 with Retry-After beyond the ceiling, shared by all auth routes', async () => {
    const client = server.client();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await client.get('/api/auth/csrf-cookie')).status);
    for (let i = 0; i < 2; i++) statuses.push((await client.login('jamie', 'hearth-demo-1')).status);
    const over = await client.post('/api/auth/logout');
    expect(statuses).toEqual([204, 204, 204, 200, 200]);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ success: false, message: chosen.tooManyAttempts(1) });
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    // Other API routes are not limited by it.
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
  });
});

describe('development mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: 'development', LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => server?.close());

  it('keeps emails in the development mailbox and says so in app-config', async () => {
    const config = await server.client().get<{ data: { dev_mailbox: boolean } }>('/api/app-config');
    expect(config.body.data.dev_mailbox).toBe(true);
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    expect((await client.post('/api/auth/mfa/enable', { method: 'email', email: 'jamie@example.test', current: 'hearth-demo-1' })).status).toBe(200);
    const mailbox = devMailboxResponseSchema.parse((await server.client().get('/api/dev/mailbox')).body);
    expect(mailbox.data).toHaveLength(1);
    expect(mailbox.data[0]).toMatchObject({ to: 'jamie@example.test', subject: 'Your Hearth code' });
    const code = /\b(\d{6})\b/.exec(mailbox.data[0]!.text)?.[1];
    const confirm = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'jamie@example.test', code });
    expect(confirm.status).toBe(200);
  });
});
