import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenMessages as chosen } from '../../src/contract/messages';
import { appSettingsResponseSchema, JOURNAL_THEME_NOT_FOUND } from '../../src/contract/residents';
import { accountSchema } from '../../src/contract/users';
import { IDEMPOTENCY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../src/contract/sync';
import type { Client } from './support/client';
import { demoIds, openStream, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});

const settingsPath = () => `/api/v1/projects/residents/${ids.resident['demo/jamie']}/app-settings`;

describe('PUT /api/v1/projects/residents/{id}/app-settings', () => {
  it('changes the settings, bumps updated_at and tells the stream', async () => {
    const before = appSettingsResponseSchema.parse((await jamie.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`)).body).data;
    const stream = await openStream(server, jamie);
    try {
      await stream.waitFor(/: connected/);
      const res = await jamie.put(settingsPath(), { journal_colour: 'mint', journal_paper: 'dotted' });
      expect(res.status).toBe(200);
      const { data } = appSettingsResponseSchema.parse(res.body);
      expect(data.app_settings).toEqual({ journal_colour: 'mint', journal_paper: 'dotted', theme: 'fun', kids_style: 'fun_style' });
      expect(data.updated_at > before.updated_at).toBe(true);
      expect(await stream.waitFor(/event: change/)).toContain('data: {"collections":["resident"]}');
    } finally {
      stream.close();
    }
  });

  it('POST with ?_method=PUT does the same; plain POST is a 404', async () => {
    const res = await jamie.post(`${settingsPath()}?_method=PUT`, { theme: 'metro' });
    expect(res.status).toBe(200);
    expect(appSettingsResponseSchema.parse(res.body).data.app_settings).toEqual({ journal_colour: 'mint', journal_paper: 'dotted', theme: 'metro', kids_style: 'fun_style' });
    expect((await jamie.post(settingsPath(), { theme: 'fun' })).status).toBe(404);
  });

  it('an unknown colour or paper answers the exact message of SPEC §8', async () => {
    const colour = await jamie.put(settingsPath(), { journal_colour: 'tartan' });
    expect(colour.status).toBe(422);
    expect(colour.body).toEqual({ success: false, message: JOURNAL_THEME_NOT_FOUND, errors: { journal_colour: [JOURNAL_THEME_NOT_FOUND] } });
    const paper = await jamie.put(settingsPath(), { journal_paper: 'papyrus' });
    expect(paper.body).toEqual({ success: false, message: JOURNAL_THEME_NOT_FOUND, errors: { journal_paper: [JOURNAL_THEME_NOT_FOUND] } });
    const theme = await jamie.put(settingsPath(), { theme: 'neon' });
    expect(theme.status).toBe(422);
    expect(theme.body).toMatchObject({ message: chosen.validationFailed, errors: { theme: [expect.any(String)] } });
    expect((await jamie.put(settingsPath(), {})).status).toBe(422);
    const unchanged = appSettingsResponseSchema.parse((await jamie.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`)).body).data;
    expect(unchanged.app_settings.journal_colour).toBe('mint');
  });

  it("kids_style is the account's kids_app theme: it changes the account and the resident record, and nothing else", async () => {
    const themesOf = async (client: Client) =>
      accountSchema.parse((await client.get('/api/v1/auth/user')).body).user.themes.map((t) => [t.system_name, t.theme_type.system_name]);
    expect(await themesOf(jamie)).toEqual([['fun_style', 'kids_app']]);
    const before = appSettingsResponseSchema.parse((await jamie.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`)).body).data;
    try {
      const res = await jamie.put(settingsPath(), { kids_style: 'gaming_style' });
      expect(res.status).toBe(200);
      const { data } = appSettingsResponseSchema.parse(res.body);
      expect(data.app_settings).toEqual({ ...before.app_settings, kids_style: 'gaming_style' });
      expect(data.updated_at > before.updated_at).toBe(true);
      expect(await themesOf(jamie)).toEqual([['gaming_style', 'kids_app']]);
      // Read back, and another young person's look is their own.
      const read = appSettingsResponseSchema.parse((await jamie.get(`/api/v1/projects/residents/${ids.resident['demo/jamie']}`)).body).data;
      expect(read.app_settings.kids_style).toBe('gaming_style');
      const sam = await signedIn(server, 'sam');
      expect(await themesOf(sam)).toEqual([['fun_style', 'kids_app']]);

      const unknown = await jamie.put(settingsPath(), { kids_style: 'neon_style' });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toMatchObject({ message: chosen.validationFailed, errors: { kids_style: [expect.any(String)] } });
      expect(await themesOf(jamie)).toEqual([['gaming_style', 'kids_app']]);
      const ali = await signedIn(server, 'carer.ali');
      expect((await ali.put(settingsPath(), { kids_style: 'fun_style' })).status).toBe(403);
      expect(await themesOf(jamie)).toEqual([['gaming_style', 'kids_app']]);
    } finally {
      expect((await jamie.put(settingsPath(), { kids_style: 'fun_style' })).status).toBe(200);
    }
    expect(await themesOf(jamie)).toEqual([['fun_style', 'kids_app']]);
  });

  it('only the young person: staff get 403, others 404; replays with an Idempotency-Key', async () => {
    const ali = await signedIn(server, 'carer.ali');
    expect((await ali.put(settingsPath(), { theme: 'none' })).status).toBe(403);
    const sam = await signedIn(server, 'sam');
    expect((await sam.put(settingsPath(), { theme: 'none' })).status).toBe(404);
    expect((await jamie.put(`/api/v1/projects/residents/${ids.resident['northfield/alex']}/app-settings`, { theme: 'none' })).status).toBe(404);

    const headers = { [IDEMPOTENCY_HEADER]: 'settings-1', 'content-type': 'application/json' };
    const first = await jamie.request('PUT', settingsPath(), { body: JSON.stringify({ journal_colour: 'coral' }), headers });
    const second = await jamie.request('PUT', settingsPath(), { body: JSON.stringify({ journal_colour: 'coral' }), headers });
    expect(second.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('419 without the CSRF token, 401 without a session', async () => {
    expect((await jamie.request('PUT', settingsPath(), { json: { theme: 'fun' }, csrf: false })).status).toBe(419);
    const guest = server.client();
    await guest.csrf();
    expect((await guest.put(settingsPath(), { theme: 'fun' })).status).toBe(401);
  });
});

describe('push subscriptions', () => {
  const subscription = (endpoint: string) => ({ endpoint, expirationTime: null, keys: { p256dh: 'BOrKey', auth: 'authSecret' } });
  const rows = (endpoint: string) => server.db.selectFrom('push_subscriptions').selectAll().where('endpoint', '=', endpoint).execute();

  it('subscribes (upsert by endpoint) and unsubscribes', async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/abc';
    const res = await jamie.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: subscription(endpoint) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    const again = await jamie.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: { ...subscription(endpoint), keys: { p256dh: 'NewKey', auth: 'newAuth' } } });
    expect(again.status).toBe(200);
    const stored = await rows(endpoint);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ user_id: ids.user['demo/jamie'], p256dh: 'NewKey', auth: 'newAuth' });

    // Someone else cannot remove it.
    const sam = await signedIn(server, 'sam');
    expect((await sam.post('/api/v1/notifications/push/unsubscribe', { endpoint })).status).toBe(200);
    expect(await rows(endpoint)).toHaveLength(1);
    expect((await jamie.post('/api/v1/notifications/push/unsubscribe', { endpoint })).body).toEqual({ success: true, data: { removed: true } });
    expect(await rows(endpoint)).toHaveLength(0);
  });

  it("refuses another person's user_id (403), a bad subscription (422), and no session (401)", async () => {
    const endpoint = 'https://fcm.googleapis.com/fcm/send/def';
    const other = await jamie.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/sam'], subscription: subscription(endpoint) });
    expect(other.status).toBe(403);
    expect(await rows(endpoint)).toHaveLength(0);
    const bad = await jamie.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: { endpoint: 'not a url', keys: {} } });
    expect(bad.status).toBe(422);
    const guest = server.client();
    await guest.csrf();
    expect((await guest.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: subscription(endpoint) })).status).toBe(401);
    expect((await jamie.post('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: subscription(endpoint) }, { csrf: false })).status).toBe(419);
  });
});

describe('event stream shutdown', () => {
  it('an open stream does not hold up app.close()', async () => {
    const own = await startTestServer();
    const client = await signedIn(own, 'jamie');
    const stream = await openStream(own, client);
    await stream.waitFor(/: connected/);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(5000);
    stream.close();
  });
});
