import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, chosenMessages as chosen } from '../../src/contract/messages';
import { DEMO_RECOVERY_CODES, DEMO_TOTP_SECRET } from '../../server/seed/demo';
import { sha256 } from '../../server/lib/crypto';
import { SESSION_COOKIE } from '../../src/contract/app-config';
import type { Client } from './support/client';
import { awayFromStepBoundary, startTestServer, totpCode, type TestServer } from './support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function rileyChallenge(): Promise<{ client: Client; id: string }> {
  const client = server.client();
  const res = await client.login('riley', 'hearth-demo-1');
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ mfa_required: true, methods: ['authenticator'], mfa_methods: ['authenticator'], mfa_setup_required: false });
  expect(res.body.data.two_factor_id).toEqual(expect.any(String));
  // No signed-in session yet.
  expect((await client.get('/api/v1/auth/user')).status).toBe(401);
  return { client, id: res.body.data.two_factor_id! };
}

const clearCodeCounter = () => server.db.deleteFrom('auth_throttles').where('key', 'like', 'codes:%').execute();

describe('riley: authenticator sign-in', () => {
  it('drift of two steps is rejected, one step is accepted, and a code never works twice', async () => {
    await awayFromStepBoundary();
    const first = await rileyChallenge();
    const tooOld = await first.client.post('/api/auth/mfa/login', { two_factor_id: first.id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET, -2) });
    expect(tooOld.status).toBe(422);
    expect(tooOld.body).toEqual({ success: false, message: messages.codeIncorrect, errors: { code: [messages.codeIncorrect] } });

    const guestToken = first.client.jar.get(SESSION_COOKIE);
    const drift = await first.client.post('/api/auth/mfa/login', { two_factor_id: first.id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET, -1) });
    expect(drift.status).toBe(200);
    expect(drift.body).toEqual({ success: true, data: { mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: false } });
    expect(first.client.jar.get(SESSION_COOKIE)).not.toBe(guestToken);
    const me = await first.client.get<{ mfa_configured: boolean; mfa_methods: string[] }>('/api/v1/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.mfa_configured).toBe(true);
    expect(me.body.mfa_methods).toEqual(['authenticator']);
    // The challenge is spent.
    const again = await first.client.post('/api/auth/mfa/login', { two_factor_id: first.id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET) });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(messages.invalidMfaSession);

    await awayFromStepBoundary();
    const second = await rileyChallenge();
    const code = totpCode(DEMO_TOTP_SECRET);
    expect((await second.client.post('/api/auth/mfa/login', { two_factor_id: second.id, method: 'authenticator', code })).status).toBe(200);

    const third = await rileyChallenge();
    const reused = await third.client.post('/api/auth/mfa/login', { two_factor_id: third.id, method: 'authenticator', code });
    expect(reused.status).toBe(422);
    expect(reused.body.message).toBe(messages.codeIncorrect);
    await clearCodeCounter();
  });

  it('a recovery code works once, in any case and with or without the dash', async () => {
    const a = await rileyChallenge();
    const code = DEMO_RECOVERY_CODES[0];
    const ok = await a.client.post('/api/auth/mfa/login', { two_factor_id: a.id, method: 'recovery_code', recovery_code: code.toUpperCase().replace('-', '') });
    expect(ok.status).toBe(200);
    expect((await a.client.get('/api/v1/auth/user')).status).toBe(200);

    const b = await rileyChallenge();
    const used = await b.client.post('/api/auth/mfa/login', { two_factor_id: b.id, method: 'recovery_code', recovery_code: code });
    expect(used.status).toBe(422);
    expect(used.body).toEqual({ success: false, message: chosen.recoveryCodeIncorrect, errors: { recovery_code: [chosen.recoveryCodeIncorrect] } });
    const badFormat = await b.client.post('/api/auth/mfa/login', { two_factor_id: b.id, method: 'recovery_code', recovery_code: 'nope' });
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.errors).toEqual({ recovery_code: [chosen.recoveryCodeFormat] });
    await clearCodeCounter();
  });

  it('validates the code format with the spec messages', async () => {
    const { client, id } = await rileyChallenge();
    const empty = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ code: [messages.codeRequired] });
    const short = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: '123' });
    expect(short.body.errors).toEqual({ code: [messages.codeSixDigits] });
  });

  it('after 5 wrong codes the 5th answer is 429 and the challenge is gone', async () => {
    const { client, id } = await rileyChallenge();
    const wrong = totpCode(DEMO_TOTP_SECRET, 5);
    for (let i = 1; i <= 4; i++) {
      const res = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: wrong });
      expect(res.status).toBe(422);
    }
    const fifth = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: wrong });
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ success: false, message: messages.mfaSessionExpired });
    const after = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET) });
    expect(after.status).toBe(422);
    expect(after.body.message).toBe(messages.invalidMfaSession);
    await clearCodeCounter();
  });

  it('an expired challenge answers mfaSessionExpired', async () => {
    const { client, id } = await rileyChallenge();
    await server.db.updateTable('mfa_challenges').set({ expires_at: new Date(Date.now() - 60_000) }).where('token_hash', '=', sha256(id)).execute();
    const res = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: messages.mfaSessionExpired });
  });

  it('an unknown challenge, or one bound to another browser session, is an invalid MFA session', async () => {
    const { id } = await rileyChallenge();
    const stranger = server.client();
    await stranger.csrf();
    const res = await stranger.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: '123456' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: messages.invalidMfaSession });
    const unknown = await stranger.post('/api/auth/mfa/login', { two_factor_id: 'made-up', method: 'authenticator', code: '123456' });
    expect(unknown.body.message).toBe(messages.invalidMfaSession);
  });

  it('send-code refuses when the person has no email method', async () => {
    const { client, id } = await rileyChallenge();
    const res = await client.post('/api/auth/mfa/send-code', { two_factor_id: id });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: chosen.mfaEmailNotSetUp });
    const missing = await client.post('/api/auth/mfa/send-code', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ two_factor_id: [messages.invalidMfaSession] });
  });

  it('10 wrong codes across challenges lock two-factor for the account', async () => {
    await clearCodeCounter();
    for (let round = 0; round < 2; round++) {
      const { client, id } = await rileyChallenge();
      for (let i = 0; i < 5; i++) await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: '000000' === totpCode(DEMO_TOTP_SECRET) ? '111111' : '000000' });
    }
    const { client, id } = await rileyChallenge();
    const res = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET) });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(chosen.tooManyAttempts(15));
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
    await clearCodeCounter();
  });
});
