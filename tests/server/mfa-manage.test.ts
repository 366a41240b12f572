import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaManageMessages, mfaRemoveResponseSchema, recoveryCodesResponseSchema } from '../../src/contract/auth';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { paths } from '../../src/contract/paths';
import { accountSchema } from '../../src/contract/users';
import { DEMO_RECOVERY_CODES, DEMO_TOTP_SECRET } from '../../server/seed/demo';
import type { OutgoingMail } from '../../server/lib/mailer';
import { DEMO_PASSWORD, signedIn, signedInRiley } from './support/session';
import { awayFromStepBoundary, startTestServer, totpCode, type TestServer } from './support/server';
import type { Client } from './support/client';

/**
 * Issue 12: a young person sees and manages their two-factor sign-in. Turning a method off and
 * making new recovery codes each ask for the password again (step-up), and every address the person
 * has hears of the change.
 */
let server: TestServer;
const sent: OutgoingMail[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const mailer = server.app.mailer;
  const send = mailer.send.bind(mailer);
  mailer.send = async (mail) => {
    sent.push(mail);
    await send(mail);
  };
});
afterAll(async () => {
  await server?.close();
});

const METHOD = (method: string) => `/api${paths.mfaMethod.build(method)}`;
const CODES = `/api${paths.recoveryCodes.pattern}`;
const methodsOf = async (client: Client) => accountSchema.parse((await client.get(`/api${paths.account.pattern}`)).body).mfa_methods;

describe('new recovery codes', () => {
  it('ask for the password and replace every old code: an old one no longer signs in, a new one does once', async () => {
    const riley = await signedInRiley(server);
    expect((await riley.post(CODES, {})).body).toMatchObject({ errors: { current: [chosen.currentPasswordRequired] } });
    const wrong = await riley.post(CODES, { current: 'not-her-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ errors: { current: [chosen.currentPasswordWrong] } });

    const res = await riley.post(CODES, { current: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    const codes = recoveryCodesResponseSchema.parse(res.body).data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes.some((code) => (DEMO_RECOVERY_CODES as readonly string[]).includes(code))).toBe(false);

    // An old code no longer signs in; a new one does, once.
    const useCode = async (code: string) => {
      const client = server.client();
      const login = await client.login('riley', DEMO_PASSWORD);
      return client.post('/api/auth/mfa/login', { two_factor_id: login.body.data.two_factor_id, method: 'recovery_code', recovery_code: code });
    };
    expect((await useCode(DEMO_RECOVERY_CODES[0]!)).status).toBe(422);
    expect((await useCode(codes[0]!)).status).toBe(200);
    expect((await useCode(codes[0]!)).status).toBe(422);
  });

  it('are refused to someone with no two-factor method', async () => {
    const sam = await signedIn(server, 'sam');
    const res = await sam.post(CODES, { current: DEMO_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errors: { recovery_codes: [mfaManageMessages.turnOnFirst] } });
  });
});

describe('turning a method off', () => {
  it('jamie turns off her email codes after the password; the removed address and her others hear of it', async () => {
    const jamie = await signedIn(server, 'jamie');
    const address = 'jamie.codes@example.test';
    expect((await jamie.post('/api/auth/mfa/enable', { method: 'email', email: address, current: DEMO_PASSWORD })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec(sent.filter((m) => m.to === address).at(-1)!.text)?.[1];
    expect((await jamie.post('/api/auth/mfa/enable', { method: 'email', email: address, code })).status).toBe(200);
    expect(await methodsOf(jamie)).toEqual(['email']);

    expect((await jamie.request('DELETE', METHOD('email'), { json: {} })).body).toMatchObject({ errors: { current: [chosen.currentPasswordRequired] } });
    expect((await jamie.request('DELETE', METHOD('authenticator'), { json: { current: DEMO_PASSWORD } })).body).toMatchObject({
      errors: { method: [mfaManageMessages.notOn] },
    });
    const before = sent.length;
    const res = await jamie.request('DELETE', METHOD('email'), { json: { current: DEMO_PASSWORD } });
    expect(res.status).toBe(200);
    expect(mfaRemoveResponseSchema.parse(res.body)).toMatchObject({ message: mfaManageMessages.removed, data: { method: 'email', methods: [] } });
    expect(await methodsOf(jamie)).toEqual([]);
    const notices = sent.slice(before);
    expect(notices.map((m) => m.to)).toContain(address);
    expect(notices.every((m) => m.text.includes('was just turned off') && !/\b\d{6}\b/.test(m.text))).toBe(true);

    // With no method left she signs in with her password alone, and gets fresh codes when she turns one on again.
    const again = await server.client().login('jamie', DEMO_PASSWORD);
    expect(again.body.data).toMatchObject({ mfa_required: false });
  });

  it('an unknown method is a 422, never a 500; a stranger is a 401', async () => {
    const sam = await signedIn(server, 'sam');
    expect((await sam.request('DELETE', METHOD('sms'), { json: { current: DEMO_PASSWORD } })).status).toBe(422);
    const stranger = server.client();
    await stranger.csrf();
    expect((await stranger.request('DELETE', METHOD('email'), { json: { current: DEMO_PASSWORD } })).status).toBe(401);
  });

  it('where the site requires two-factor, the only method can’t be turned off', async () => {
    const alex = server.client();
    const login = await alex.login('alex', DEMO_PASSWORD, 'northfield');
    expect(login.body.data.mfa_setup_required).toBe(true);
    const start = await alex.post('/api/auth/mfa/enable', { method: 'authenticator' });
    const secret = (start.body as { data: { secret: string } }).data.secret;
    await awayFromStepBoundary();
    expect((await alex.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(secret) })).status).toBe(200);

    const res = await alex.request('DELETE', METHOD('authenticator'), { json: { current: DEMO_PASSWORD } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errors: { method: [mfaManageMessages.keepOne] } });
    expect(await methodsOf(alex)).toEqual(['authenticator']);
  });

  it('riley turns her authenticator off: no second step at sign-in any more', async () => {
    const riley = server.client();
    const login = await riley.login('riley', DEMO_PASSWORD);
    await awayFromStepBoundary();
    expect((await riley.post('/api/auth/mfa/login', { two_factor_id: login.body.data.two_factor_id, method: 'authenticator', code: totpCode(DEMO_TOTP_SECRET, 1) })).status).toBe(200);
    const res = await riley.request('DELETE', METHOD('authenticator'), { json: { current: DEMO_PASSWORD } });
    expect(res.status).toBe(200);
    const next = await server.client().login('riley', DEMO_PASSWORD);
    expect(next.body.data).toMatchObject({ mfa_required: false, two_factor_id: null });
  });
});
