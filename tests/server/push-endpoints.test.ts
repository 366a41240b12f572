import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMessages } from '../../src/contract/push';
import { ConfigError, loadConfig } from '../../server/config';
import { DEFAULT_PUSH_SERVICE_HOSTS, isPublicAddress, parsePushServiceHosts, publicOnlyLookup, pushEndpointProblem } from '../../server/lib/push-endpoints';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/** Subscriptions only to push services (issue 10; issue 12 finding 6): the allowlist, addresses, the setting. */
const defaults = parsePushServiceHosts(DEFAULT_PUSH_SERVICE_HOSTS).rules;

const ALLOWED = [
  'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
  'https://FCM.googleapis.com/fcm/send/abc',
  'https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB',
  'https://web.push.apple.com/QGuQyavXutnMOM',
  'https://api.push.apple.com/3/device/abc',
  'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
  'https://fcm.googleapis.com:443/fcm/send/abc',
];

const REFUSED = [
  'http://fcm.googleapis.com/fcm/send/abc',
  'https://evilfcm.googleapis.com/x',
  'https://fcm.googleapis.com.evil.example/x',
  'https://push.apple.com/x',
  'https://evilpush.apple.com/x',
  'https://notify.windows.com/x',
  'https://x.evilnotify.windows.com/x',
  'https://fcm.googleapis.com./x',
  'https://fcm.googleapis.com:8443/x',
  'https://user:secret@fcm.googleapis.com/x',
  'https://127.0.0.1/x',
  'https://127.1/x',
  'https://0x7f.0.0.1/x',
  'https://0x7f000001/x',
  'https://2130706433/x',
  'https://017700000001/x',
  'https://0177.0.0.1/x',
  'https://10.0.0.8/x',
  'https://192.168.1.1/x',
  'https://169.254.169.254/latest/meta-data',
  'https://[::1]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[fe80::1]/x',
  'https://localhost/x',
  'https://push.localhost/x',
  'https://intranet/x',
  'https://example.com/x',
];

describe('the endpoint check', () => {
  it("allows the browsers' push services and nothing else", () => {
    for (const endpoint of ALLOWED) expect(pushEndpointProblem(endpoint, defaults), endpoint).toBeNull();
    for (const endpoint of REFUSED) expect(pushEndpointProblem(endpoint, defaults), endpoint).not.toBeNull();
  });

  it('an IP literal or localhost is refused even when the list names it (the setting refuses it first)', () => {
    const parsed = parsePushServiceHosts('127.0.0.1, localhost, *.localhost, [::1], 10.0.0.1:8443, push.example.org');
    expect(parsed.problems).toHaveLength(5);
    expect(parsed.rules).toEqual([{ domain: 'push.example.org', wildcard: false, port: null }]);
    expect(pushEndpointProblem('https://127.0.0.1/x', [{ domain: '127.0.0.1', wildcard: false, port: null }])).toBe('an IP address');
  });

  it('a port must be named to be allowed; *.name matches below name on a dot boundary only', () => {
    const rules = parsePushServiceHosts('push.example.org:8443 *.svc.example.org').rules;
    expect(pushEndpointProblem('https://push.example.org:8443/a', rules)).toBeNull();
    expect(pushEndpointProblem('https://push.example.org/a', rules)).not.toBeNull();
    expect(pushEndpointProblem('https://a.b.svc.example.org/a', rules)).toBeNull();
    expect(pushEndpointProblem('https://svc.example.org/a', rules)).not.toBeNull();
    expect(pushEndpointProblem('https://xsvc.example.org/a', rules)).not.toBeNull();
  });
});

describe('addresses the sender connects to', () => {
  it('only public unicast addresses', () => {
    for (const address of ['8.8.8.8', '142.250.180.10', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', 'not an ip',
    ]) expect(isPublicAddress(address), address).toBe(false);
  });

  it('a name that resolves to loopback is refused before any connection', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', { all: true }, (e) => resolve(e)));
    expect(error?.code).toBe('EPUSHPRIVATE');
    const single = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', undefined, (e) => resolve(e)));
    expect(single?.code).toBe('EPUSHPRIVATE');
  });
});

describe('PUSH_SERVICE_HOSTS is validated at start', () => {
  const env = () => ({ NODE_ENV: 'test', APP_KEY: randomBytes(32).toString('base64'), DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-push-')) });

  it('defaults to the browsers push services; a list replaces it; bad entries are a readable start-up error', () => {
    expect(loadConfig(env()).pushServiceHosts).toEqual(defaults);
    expect(defaults.map((r) => `${r.wildcard ? '*.' : ''}${r.domain}`)).toEqual([
      'fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.push.apple.com', 'web.push.apple.com', '*.notify.windows.com',
    ]);
    expect(loadConfig({ ...env(), PUSH_SERVICE_HOSTS: 'push.example.org:8443' }).pushServiceHosts).toEqual([{ domain: 'push.example.org', wildcard: false, port: 8443 }]);
    for (const bad of ['127.0.0.1', 'localhost', 'https://fcm.googleapis.com', '*.com', 'a..b.com', 'host.example:99999', '-bad.example.com', ',,,']) {
      expect(() => loadConfig({ ...env(), PUSH_SERVICE_HOSTS: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ ...env(), PUSH_SERVICE_HOSTS: '10.0.0.1' })).toThrow(/PUSH_SERVICE_HOSTS.*IP addresses are not allowed/);
  });
});

describe('POST /v1/notifications/push/subscribe', () => {
  let server: TestServer;
  let ids: Awaited<ReturnType<typeof demoIds>>;
  let jamie: Client;
  beforeAll(async () => {
    server = await startTestServer();
    ids = await demoIds(server);
    jamie = await signedIn(server, 'jamie');
  });
  afterAll(async () => server?.close());

  const subscribe = (endpoint: unknown, keys: unknown = { p256dh: 'BPubKey', auth: 'authKey' }) =>
    jamie.post<{ errors?: Record<string, string[]> }>('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: { endpoint, expirationTime: null, keys } });

  it('stores a subscription to an allowed push service; refuses anything else with 422 subscription.endpoint, never calling it', async () => {
    for (const endpoint of ALLOWED) expect((await subscribe(endpoint)).status, endpoint).toBe(200);
    for (const endpoint of REFUSED) {
      const res = await subscribe(endpoint);
      expect(res.status, endpoint).toBe(422);
      expect(Object.keys(res.body.errors ?? {}), endpoint).toEqual(['subscription.endpoint']);
    }
    expect((await subscribe('https://127.0.0.1/x')).body.errors).toEqual({ 'subscription.endpoint': [pushMessages.endpointNotAllowed] });
    expect((await subscribe('http://fcm.googleapis.com/x')).body.errors).toEqual({ 'subscription.endpoint': [pushMessages.endpointHttps] });
    const stored = await server.db.selectFrom('push_subscriptions').select('endpoint').execute();
    expect(stored.map((r) => r.endpoint).sort()).toEqual([...ALLOWED].sort());
  });

  it('NUL bytes, spaces and wrong types are 422, never 500', async () => {
    for (const [endpoint, keys] of [
      ['https://fcm.googleapis.com/x\u0000y', undefined],
      ['https://fcm.googleapis.com/x y', undefined],
      [42, undefined],
      [['https://fcm.googleapis.com/x'], undefined],
      ['https://fcm.googleapis.com/ok', { p256dh: 'a\u0000b', auth: 'x' }],
      ['https://fcm.googleapis.com/ok', { p256dh: 'abc', auth: 5 }],
      ['https://fcm.googleapis.com/ok', 'keys'],
    ] as const) {
      const res = await subscribe(endpoint, keys ?? { p256dh: 'BPubKey', auth: 'authKey' });
      expect(res.status, JSON.stringify(endpoint)).toBe(422);
    }
    expect((await jamie.post('/api/v1/notifications/push/unsubscribe', { endpoint: 'https://fcm.googleapis.com/x\u0000' })).status).toBe(422);
  });
});
