import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenMessages as chosen, messages } from '../../src/contract/messages';
import { DEMO_RECOVERY_CODES } from '../../server/seed/demo';
import type { JsonResponse } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * Security review (journal, voice, comments, calendar, files, auth): a lock checked before a guess
 * and a failure counted after it let guesses sent at once all be checked before any was counted.
 * Each guess is now claimed first (server/lib/throttle.ts claimAttempt), so a burst is never more
 * guesses than the limits allow: 5 passwords per account, 5 codes per two-factor challenge.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  // The per-address limit is out of the way: each test is about one account's or one challenge's.
  server = await startTestServer({ limits: { ipFailures: 1_000 } });
  ids = await demoIds(server);
});
afterAll(async () => {
  await server?.close();
});

const message = (res: JsonResponse) => (res.body as { message?: string }).message;

describe('guesses sent at once', () => {
  it('thirty passwords for one account: at most five are checked, then the account is locked, the right password too', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => server.client().login('sam', `not-sams-password-${i}`)));
    const checked = answers.filter((a) => a.status === 422 && message(a) === chosen.invalidCredentials);
    expect(checked.length).toBeLessThanOrEqual(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - checked.length);
    expect((await server.client().login('sam', 'hearth-demo-1')).status).toBe(429);
  });

  it('thirty current passwords from a tablet left signed in: at most five are checked', async () => {
    const tablet = await signedIn(server, 'jamie');
    const path = `/api/v1/users/${ids.user['demo/jamie']}/change-password`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => tablet.put(path, { current: `a-guess-${i}`, password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' })),
    );
    const checked = answers.filter((a) => a.status === 422);
    expect(checked.length).toBeLessThanOrEqual(4);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30 - checked.length);
    // The right password is refused while the lock holds; the session itself still works.
    expect((await tablet.put(path, { current: 'hearth-demo-1', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' })).status).toBe(429);
    expect((await tablet.get('/api/v1/auth/user')).status).toBe(200);
  });

  // The embedded database runs one statement at a time, which makes this burst arrive almost in
  // order; on PostgreSQL the codes were all checked at once (ten of Riley's recovery codes signed in).
  it('a burst of two-factor codes on one challenge: at most five are checked', async () => {
    const browser = server.client();
    const login = await browser.login('riley', 'hearth-demo-1');
    const id = login.body.data.two_factor_id;
    // Riley's real recovery codes among wrong ones: each one checked would sign in (and be used up).
    const guesses = [...DEMO_RECOVERY_CODES, ...Array.from({ length: 20 }, (_, i) => `wrong-${String(i).padStart(5, '0')}`)];
    const answers = await Promise.all(guesses.map((code) => browser.post('/api/auth/mfa/login', { two_factor_id: id, method: 'recovery_code', recovery_code: code })));
    const signedInWith = answers.filter((a) => a.status === 200);
    const refusedAsWrong = answers.filter((a) => a.status === 422 && message(a) === chosen.recoveryCodeIncorrect);
    expect(signedInWith.length + refusedAsWrong.length).toBeLessThanOrEqual(5);
    for (const a of answers) {
      // 422: wrong, or the challenge already ended; 419: sent with the browser session a success replaced.
      if (a.status === 200 || a.status === 422 || a.status === 419) continue;
      expect(a.status).toBe(429);
      expect([messages.mfaSessionExpired, chosen.tooManyAttempts(15)]).toContain(message(a));
    }
  });
});
