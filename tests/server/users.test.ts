import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/contract/app-config';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { accountSchema, themesResponseSchema, userResponseSchema, userTypesResponseSchema } from '../../src/contract/users';
import type { Client } from './support/client';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  const users = await server.db.selectFrom('users').innerJoin('tenants', 'tenants.id', 'users.tenant_id').select(['users.id', 'users.username', 'tenants.slug']).execute();
  for (const u of users) ids[`${u.slug}/${u.username}`] = u.id;
});
afterAll(async () => {
  await server?.close();
});

async function signedIn(username: string, site = 'demo'): Promise<Client> {
  const client = server.client();
  const res = await client.login(username, 'hearth-demo-1', site);
  expect(res.status).toBe(200);
  return client;
}

describe('GET /api/v1/auth/user', () => {
  it('a young person: resident record, flags, theme and their home', async () => {
    const client = await signedIn('jamie');
    const res = await client.get('/api/v1/auth/user');
    expect(res.status).toBe(200);
    const account = accountSchema.parse(res.body);
    expect(account.user).toMatchObject({ username: 'jamie', first_name: 'Jamie', last_name: 'Rivers', user_type_id: 1, has_photo: true });
    expect(account.user.user_type.system_name).toBe('young_person_user');
    expect(account.user.themes.map((t) => [t.system_name, t.theme_type.system_name])).toEqual([['fun_style', 'kids_app']]);
    expect(account.user.resident).toMatchObject({ preferred_name: 'Jamie', journal_enabled: 1, voice_enabled: 1, rewards_enabled: 1 });
    expect(account.user.resident!.reward_points).toBeGreaterThan(0);
    expect(Object.values(account.permissions.homes).map((h) => h.name)).toEqual(['Willow House']);
    expect(Object.keys(account.permissions.homes)).toEqual([account.user.resident!.home_id]);
    expect(account).toMatchObject({ mfa_configured: false, mfa_methods: [], mfa_required: false });
  });

  it('staff: no resident record, the homes they work in', async () => {
    const client = await signedIn('carer.ali');
    const account = accountSchema.parse((await client.get('/api/v1/auth/user')).body);
    expect(account.user.resident).toBeNull();
    expect(Object.values(account.permissions.homes).map((h) => h.name)).toEqual(['Willow House']);
  });
});

describe('lookups', () => {
  it('user types and themes', async () => {
    const client = await signedIn('jamie');
    const types = userTypesResponseSchema.parse((await client.get('/api/v1/users/types')).body);
    expect(types.data.map((t) => [t.id, t.system_name])).toEqual([[1, 'young_person_user'], [2, 'employee'], [3, 'manager']]);
    const themes = themesResponseSchema.parse((await client.get('/api/v1/users/themes')).body);
    expect(themes.data.map((t) => [t.id, t.system_name])).toEqual([[1, 'fun_style'], [2, 'gaming_style']]);
  });
});

describe('GET /api/v1/users/{id} and photos', () => {
  it('a young person sees themself and the staff of their home', async () => {
    const client = await signedIn('jamie');
    const self = userResponseSchema.parse((await client.get(`/api/v1/users/${ids['demo/jamie']}`)).body);
    expect(self.data).toEqual({ id: ids['demo/jamie'], first_name: 'Jamie', last_name: 'Rivers', user_type_id: 1, has_photo: true });
    const carer = userResponseSchema.parse((await client.get(`/api/v1/users/${ids['demo/carer.ali']}`)).body);
    expect(carer.data).toMatchObject({ first_name: 'Ali', last_name: 'Hassan', user_type_id: 2 });
  });

  it('but not other residents, staff of other homes, or other sites (404, not 403)', async () => {
    const client = await signedIn('jamie');
    for (const key of ['demo/sam', 'demo/riley', 'demo/carer.chris', 'northfield/alex', 'northfield/carer.jo']) {
      const res = await client.get(`/api/v1/users/${ids[key]}`);
      expect(res.status, key).toBe(404);
      expect(res.body).toEqual({ success: false, message: chosen.notFound });
      const photo = await client.get(`/api/v1/users/profile/photo/${ids[key]}`);
      expect(photo.status, key).toBe(404);
    }
    const nobody = await client.get('/api/v1/users/00000000-0000-4000-8000-000000000000');
    expect(nobody.status).toBe(404);
    const bad = await client.get('/api/v1/users/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ errors: { id: [expect.any(String)] } });
  });

  it('staff see residents and staff of their homes only', async () => {
    const client = await signedIn('carer.ali');
    expect((await client.get(`/api/v1/users/${ids['demo/jamie']}`)).status).toBe(200);
    expect((await client.get(`/api/v1/users/${ids['demo/carer.beth']}`)).status).toBe(200);
    expect((await client.get(`/api/v1/users/${ids['demo/sam']}`)).status).toBe(404);
    expect((await client.get(`/api/v1/users/${ids['northfield/alex']}`)).status).toBe(404);
  });

  it('serves photos with strict headers', async () => {
    const client = await signedIn('jamie');
    const res = await client.get(`/api/v1/users/profile/photo/${ids['demo/carer.ali']}`, { accept: 'image/*' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.body).toContain('>AH</text>');
  });

  it('404 when the person has no photo', async () => {
    await server.db.deleteFrom('user_photos').where('user_id', '=', ids['demo/carer.dan']!).execute();
    const client = await signedIn('jamie');
    expect((await client.get(`/api/v1/users/${ids['demo/carer.dan']}`)).body).toMatchObject({ data: { has_photo: false } });
    expect((await client.get(`/api/v1/users/profile/photo/${ids['demo/carer.dan']}`)).status).toBe(404);
  });

  it('needs a session', async () => {
    expect((await server.client().get(`/api/v1/users/${ids['demo/jamie']}`)).status).toBe(401);
    expect((await server.client().get(`/api/v1/users/profile/photo/${ids['demo/jamie']}`)).status).toBe(401);
  });
});

describe('change password', () => {
  const path = (key: string) => `/api/v1/users/${ids[key]}/change-password`;

  it('validates the payload with the chosen messages', async () => {
    const client = await signedIn('sam');
    const res = await client.put(path('demo/sam'), { current: '', password: 'short', password_confirmation: 'other' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      message: chosen.validationFailed,
      errors: {
        current: [chosen.currentPasswordRequired],
        password: [chosen.passwordTooShort(12)],
        password_confirmation: [chosen.passwordsMustMatch],
      },
    });
  });

  it('only for oneself (404 otherwise)', async () => {
    const client = await signedIn('sam');
    const res = await client.put(path('demo/jamie'), { current: 'hearth-demo-1', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' });
    expect(res.status).toBe(404);
  });

  it('wrong current password and same-as-current are field errors', async () => {
    const client = await signedIn('sam');
    const wrong = await client.put(path('demo/sam'), { current: 'not-my-password', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ success: false, message: chosen.validationFailed, errors: { current: [chosen.currentPasswordWrong] } });
    const same = await client.put(path('demo/sam'), { current: 'hearth-demo-1', password: 'hearth-demo-1', password_confirmation: 'hearth-demo-1' });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({ success: false, message: chosen.validationFailed, errors: { password: [chosen.passwordSameAsCurrent] } });
  });

  it('succeeds, signs out the other sessions and keeps this one (POST ?_method=PUT too)', async () => {
    const other = await signedIn('sam');
    const client = await signedIn('sam');
    const res = await client.post(`${path('demo/sam')}?_method=PUT`, { current: 'hearth-demo-1', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: chosen.passwordChanged });
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
    expect((await other.get('/api/v1/auth/user')).status).toBe(401);
    expect((await server.client().login('sam', 'hearth-demo-1')).status).toBe(422);
    expect((await server.client().login('sam', 'a-brand-new-pass')).status).toBe(200);
    // Put it back for the other tests.
    const back = await client.put(path('demo/sam'), { current: 'a-brand-new-pass', password: 'hearth-demo-1', password_confirmation: 'hearth-demo-1' });
    expect(back.status).toBe(200);
  });

  it('a copy of this very session cookie (stolen from this browser) is signed out too; this browser carries on with a new token', async () => {
    const client = await signedIn('sam');
    const copy = server.client();
    for (const [name, value] of client.jar) copy.jar.set(name, value);
    const before = client.jar.get(SESSION_COOKIE);
    expect((await copy.get('/api/v1/auth/user')).status).toBe(200);
    const res = await client.put(path('demo/sam'), { current: 'hearth-demo-1', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' });
    expect(res.status).toBe(200);
    expect(client.jar.get(SESSION_COOKIE)).not.toBe(before);
    expect((await copy.get('/api/v1/auth/user')).status).toBe(401);
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
    // The new token comes with its own anti-forgery token: the next write goes through.
    const back = await client.put(path('demo/sam'), { current: 'a-brand-new-pass', password: 'hearth-demo-1', password_confirmation: 'hearth-demo-1' });
    expect(back.status).toBe(200);
  });

  it('a plain POST without the override is not a route', async () => {
    const client = await signedIn('sam');
    expect((await client.post(path('demo/sam'), {})).status).toBe(404);
  });
});

describe('password lockout', () => {
  it('5 failures lock the account for 15 minutes, even for the right password', async () => {
    await server.db.deleteFrom('auth_throttles').execute();
    for (let i = 1; i <= 4; i++) {
      const res = await server.client().login('riley', `wrong-${i}`);
      expect(res.status).toBe(422);
    }
    const fifth = await server.client().login('riley', 'wrong-5');
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ success: false, message: chosen.tooManyAttempts(15) });
    const retryAfter = Number(fifth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const right = await server.client().login('riley', 'hearth-demo-1');
    expect(right.status).toBe(429);
    // Another account is not affected.
    expect((await server.client().login('jamie', 'hearth-demo-1')).status).toBe(200);
    // And the lock ends.
    await server.db.updateTable('auth_throttles').set({ locked_until: new Date(Date.now() - 1000) }).execute();
    expect((await server.client().login('riley', 'hearth-demo-1')).status).toBe(200);
    await server.db.deleteFrom('auth_throttles').execute();
  });

  it('wrong current passwords in change-password count too', async () => {
    await server.db.deleteFrom('auth_throttles').execute();
    const client = await signedIn('jamie');
    let last = 0;
    for (let i = 0; i < 5; i++) {
      last = (await client.put(`/api/v1/users/${ids['demo/jamie']}/change-password`, { current: `nope-${i}`, password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' })).status;
    }
    expect(last).toBe(429);
    expect((await server.client().login('jamie', 'hearth-demo-1')).status).toBe(429);
    await server.db.deleteFrom('auth_throttles').execute();
  });

  it('the session cookie of a locked-out person still works (locks stop guessing, not use)', async () => {
    const client = await signedIn('jamie');
    expect(client.jar.get(SESSION_COOKIE)).toBeTruthy();
    expect((await client.get('/api/v1/auth/user')).status).toBe(200);
  });
});
