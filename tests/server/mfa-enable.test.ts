import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaEnableResponseSchema } from '../../src/contract/auth';
import { accountSchema } from '../../src/contract/users';
import { chosenMessages as chosen, messages } from '../../src/contract/messages';
import { SESSION_COOKIE } from '../../src/contract/app-config';
import { awayFromStepBoundary, startTestServer, totpCode, type TestServer } from './support/server';

/** A real SMTP server on 127.0.0.1:0 that keeps what it receives. */
let smtp: SMTPServer;
const received: string[] = [];
let server: TestServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const address = smtp.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function waitForMail(to: string, count: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mails = received.filter((m) => m.includes(to));
    if (mails.length >= count) return mails[count - 1]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail for ${to}`);
}
const codeIn = (mail: string) => /\b(\d{6})\b/.exec(mail.split(/\r?\n\r?\n/).slice(1).join('\n'))?.[1] ?? '';

describe('jamie turns on an authenticator', () => {
  it('gets a secret, QR code and, on confirmation, ten recovery codes once', async () => {
    const client = server.client();
    await client.login('jamie', 'hearth-demo-1');
    const start = await client.post('/api/auth/mfa/enable', { method: 'authenticator', current: 'hearth-demo-1' });
    expect(start.status).toBe(200);
    const started = mfaEnableResponseSchema.parse(start.body).data;
    expect(started.confirmed).toBe(false);
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauth_url).toContain('otpauth://totp/Hearth:demo%3Ajamie');
    expect(started.otpauth_url).toContain('issuer=Hearth');
    expect(started.qr_code).toMatch(/^data:image\/png;base64,/);
    // The secret is stored encrypted.
    const row = await server.db.selectFrom('mfa_methods').select(['secret_encrypted', 'confirmed_at']).where('method', '=', 'authenticator').where('email', 'is', null).execute();
    expect(row.some((r) => r.secret_encrypted?.includes(started.secret!))).toBe(false);

    const wrong = await client.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(started.secret!, 3) });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ success: false, message: messages.codeIncorrect, errors: { code: [messages.codeIncorrect] } });

    await awayFromStepBoundary();
    const confirm = await client.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(started.secret!) });
    expect(confirm.status).toBe(200);
    const confirmed = mfaEnableResponseSchema.parse(confirm.body);
    expect(confirmed.message).toBe(chosen.mfaEnabled);
    expect(confirmed.data.confirmed).toBe(true);
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    for (const code of confirmed.data.recovery_codes!) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const again = await client.post('/api/auth/mfa/enable', { method: 'authenticator' });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(chosen.mfaAlreadyEnabled);

    const me = accountSchema.parse((await client.get('/api/v1/auth/user')).body);
    expect(me.mfa_configured).toBe(true);
    expect(me.mfa_methods).toEqual(['authenticator']);

    // Next sign-in asks for the code; a recovery code from the set works.
    await client.post('/api/auth/logout');
    const login = await client.login('jamie', 'hearth-demo-1');
    expect(login.body.data.mfa_required).toBe(true);
    const recovery = await client.post('/api/auth/mfa/login', { two_factor_id: login.body.data.two_factor_id, method: 'recovery_code', recovery_code: confirmed.data.recovery_codes![3] });
    expect(recovery.status).toBe(200);

    // A second method later returns no recovery codes (they exist already).
    const email = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'jamie@example.test', current: 'hearth-demo-1' });
    expect(email.status).toBe(200);
    const code = codeIn(await waitForMail('jamie@example.test', 1));
    const emailConfirm = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'jamie@example.test', code });
    expect(emailConfirm.status).toBe(200);
    const emailData = mfaEnableResponseSchema.parse(emailConfirm.body).data;
    expect(emailData.confirmed).toBe(true);
    expect(emailData.recovery_codes).toBeUndefined();
  });

  it('needs a signed-in session', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.post('/api/auth/mfa/enable', { method: 'authenticator' });
    expect(res.status).toBe(401);
  });

  it('validates the email address', async () => {
    const client = server.client();
    await client.login('sam', 'hearth-demo-1');
    const res = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'not-an-email' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: [chosen.emailInvalid] });
    const empty = await client.post('/api/auth/mfa/enable', { method: 'email', email: '' });
    expect(empty.body.errors).toEqual({ email: [chosen.emailRequired] });
  });
});

describe('sam turns on email codes over real SMTP', () => {
  it('confirms by emailed code, then signs in with send-code', async () => {
    const client = server.client();
    await client.login('sam', 'hearth-demo-1');
    const start = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'sam@example.test', current: 'hearth-demo-1' });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ success: true, message: chosen.mfaCodeSent, data: { method: 'email', confirmed: false } });
    const mail = await waitForMail('sam@example.test', 1);
    expect(mail).toContain('Hearth <no-reply@hearth.localhost>');
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);

    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await client.post('/api/auth/mfa/enable', { method: 'email', email: 'sam@example.test', code: wrongCode })).status).toBe(422);
    const confirm = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'sam@example.test', code });
    expect(confirm.status).toBe(200);
    expect(mfaEnableResponseSchema.parse(confirm.body).data.recovery_codes).toHaveLength(10);

    await client.post('/api/auth/logout');
    const login = await client.login('sam', 'hearth-demo-1');
    expect(login.body.data).toMatchObject({ mfa_required: true, methods: ['email'] });
    const id = login.body.data.two_factor_id!;
    const send = await client.post('/api/auth/mfa/send-code', { two_factor_id: id });
    expect(send.status).toBe(200);
    expect(send.body).toEqual({ success: true, message: chosen.mfaCodeSent });
    const first = codeIn(await waitForMail('sam@example.test', 2));
    // A new send replaces the old code.
    await client.post('/api/auth/mfa/send-code', { two_factor_id: id });
    const second = codeIn(await waitForMail('sam@example.test', 3));
    if (first !== second) {
      const old = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'email', code: first });
      expect(old.status).toBe(422);
    }
    const ok = await client.post('/api/auth/mfa/login', { two_factor_id: id, method: 'email', code: second });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
  });
});

describe('alex on a site that requires two-factor', () => {
  it('gets a restricted session until an authenticator is confirmed', async () => {
    const client = server.client();
    const login = await client.login('alex', 'hearth-demo-1', 'northfield');
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({ mfa_required: false, mfa_methods: [], methods: [], two_factor_id: null, mfa_setup_required: true });

    const me = accountSchema.parse((await client.get('/api/v1/auth/user')).body);
    expect(me.mfa_required).toBe(true);
    expect(me.mfa_configured).toBe(false);
    expect((await client.get('/api/v1/users/types')).status).toBe(200);
    expect((await client.get('/api/v1/users/themes')).status).toBe(200);
    const blocked = await client.get(`/api/v1/users/${me.user.id}`);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ success: false, message: chosen.mfaSetupRequired });
    const change = await client.put(`/api/v1/users/${me.user.id}/change-password`, { current: 'hearth-demo-1', password: 'a-new-password-1', password_confirmation: 'a-new-password-1' });
    expect(change.status).toBe(403);

    const start = mfaEnableResponseSchema.parse((await client.post('/api/auth/mfa/enable', { method: 'authenticator' })).body).data;
    expect(start.otpauth_url).toContain('northfield%3Aalex');
    const setupToken = client.jar.get(SESSION_COOKIE);
    await awayFromStepBoundary();
    const confirm = await client.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(start.secret!) });
    expect(confirm.status).toBe(200);
    expect(client.jar.get(SESSION_COOKIE)).not.toBe(setupToken);
    expect((await client.get(`/api/v1/users/${me.user.id}`)).status).toBe(200);
  });
});

describe('finding 11: step-up, the password again before a signed-in session starts a method', () => {
  it('is asked for, a wrong one refused and counted towards the sign-in lock; a change is told to the other address', async () => {
    const client = server.client();
    await client.login('carer.ali', 'hearth-demo-1');
    const none = await client.post('/api/auth/mfa/enable', { method: 'email', email: 'someone.else@example.test' });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ current: [chosen.currentPasswordRequired] });
    const wrong = await client.post('/api/auth/mfa/enable', { method: 'authenticator', current: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current: [chosen.currentPasswordWrong] });
    // Nothing was started or sent by either.
    expect(received.some((mail) => mail.includes('someone.else@example.test'))).toBe(false);
    expect(await server.db.selectFrom('mfa_methods').innerJoin('users', 'users.id', 'mfa_methods.user_id').where('users.username', '=', 'carer.ali').select('mfa_methods.id').execute()).toEqual([]);

    const start = await client.post('/api/auth/mfa/enable', { method: 'authenticator', current: 'hearth-demo-1' });
    expect(start.status).toBe(200);
    const secret = mfaEnableResponseSchema.parse(start.body).data.secret!;
    await awayFromStepBoundary();
    expect((await client.post('/api/auth/mfa/enable', { method: 'authenticator', code: totpCode(secret) })).status).toBe(200);
    const notice = await waitForMail('ali.hassan@demo.hearth.localhost', 1);
    expect(notice).toContain('Two-factor sign-in with an authenticator app was just turned on');
    expect(notice).not.toContain(secret);

    // Guessing the password here locks the account as guessing it at sign-in does.
    const guesser = server.client();
    await guesser.login('carer.beth', 'hearth-demo-1');
    let last = 0;
    for (let i = 0; i < 6; i++) last = (await guesser.post('/api/auth/mfa/enable', { method: 'authenticator', current: `guess-${i}` })).status;
    expect(last).toBe(429);
    expect((await server.client().login('carer.beth', 'hearth-demo-1')).status).toBe(429);
  });
});
