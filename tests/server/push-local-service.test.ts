import { randomBytes } from 'node:crypto';
import { Agent } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushMessages, pushMessageSchema } from '../../src/contract/push';
import { createWebPushSender } from '../../server/lib/push-sender';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { browserSubscription, decryptAes128gcm, startPushService, verifyVapid, type BrowserSubscription, type LocalPushService } from './support/web-push-receiver';

/**
 * Web Push proven without the internet (issue 10): a local HTTPS push service on 127.0.0.1 with its
 * own self-signed certificate, allowed through PUSH_SERVICE_HOSTS; the server's real web-push sender
 * delivers to it (its agent trusts that certificate and resolves the service's name to 127.0.0.1,
 * in this test only); the service checks the VAPID JWT and decrypts the aes128gcm body with the
 * subscription's private keys, and the payload is exactly the content-free message.
 */
let service: LocalPushService;
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let browser: BrowserSubscription;

/** The test's resolver: the push service's name is 127.0.0.1, nothing else resolves. */
function testLookup(host: string, options: { all?: boolean } | undefined, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) {
  if (host !== service.host) return callback(new Error(`unexpected host ${host}`), []);
  if (options?.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  return callback(null, '127.0.0.1', 4);
}

beforeAll(async () => {
  service = await startPushService('push.hearth.test');
  server = await startTestServer({ env: { PUSH_SERVICE_HOSTS: `${service.host}:${service.port}` } });
  server.app.pushSender = createWebPushSender(server.config.vapid, { agent: new Agent({ ca: service.cert, lookup: testLookup as never }) });
  ids = await demoIds(server);
  [jamie, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
  browser = browserSubscription();
});
afterAll(async () => {
  await server?.close();
  await service?.close();
});
beforeEach(async () => {
  service.received.length = 0;
  service.status = 201;
  await server.db.deleteFrom('push_subscriptions').execute();
});

const endpointFor = (token: string) => `${service.origin}/push/${token}`;

async function subscribe(endpoint: string, keys = browser.keys) {
  return jamie.post<{ errors?: Record<string, string[]> }>('/api/v1/notifications/push/subscribe', { user_id: ids.user['demo/jamie'], subscription: { endpoint, expirationTime: null, keys } });
}

async function jamiesSharedEntry(): Promise<string> {
  const row = await server.db
    .selectFrom('journal_entries')
    .select('id')
    .where('resident_id', '=', ids.resident['demo/jamie']!)
    .where('description', 'like', 'Scored a goal%')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The one message the service got: VAPID checked, body decrypted, parsed with the contract. */
function theMessage() {
  expect(service.received).toHaveLength(1);
  const push = service.received[0]!;
  expect(push.method).toBe('POST');
  expect(push.headers['content-encoding']).toBe('aes128gcm');
  expect(push.headers['content-type']).toBe('application/octet-stream');
  expect(push.headers.ttl).toBe('86400');
  expect(push.headers.urgency).toBe('normal');
  expect(push.headers.topic).toBe('hearth-changed');
  const claims = verifyVapid(push.headers.authorization, { publicKey: server.config.vapid.publicKey, audience: service.origin, subject: server.config.vapid.subject });
  expect(claims.sub).toBe('mailto:no-reply@hearth.localhost');
  const plaintext = decryptAes128gcm(push.body, browser).toString('utf8');
  return { path: push.path, plaintext, message: pushMessageSchema.parse(JSON.parse(plaintext)) };
}

describe('a local push service receives what web-push sends', () => {
  it("a staff reply: VAPID verifies, the body decrypts with the subscription's keys, the payload is content-free", async () => {
    const token = randomBytes(12).toString('base64url');
    expect((await subscribe(endpointFor(token))).status).toBe(200);
    const entryId = await jamiesSharedEntry();
    const res = await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: entryId, comment: 'Brilliant goal, Jamie!' });
    expect(res.status).toBe(201);
    await server.app.push.settled();
    const { path, plaintext, message } = theMessage();
    expect(path).toBe(`/push/${token}`);
    expect(message).toEqual({ type: 'changed', collections: ['feedback', 'journal'], url: `/entries/comments/${entryId}`, title: 'Hearth', body: 'Something new in Hearth' });
    expect(plaintext).not.toMatch(/goal|Jamie|Ali/);
  });

  it('a reward decision decrypts to a message that opens the reward history', async () => {
    expect((await subscribe(endpointFor('rewards'))).status).toBe(200);
    const reward = await ali.post<{ data: { id: string } }>(`/api/v1/homes/${ids.home['Willow House']}/rewards`, { name: 'Swimming', points: 1 });
    const made = await jamie.post<{ data: { id: string } }>(`/api/v1/projects/residents/${ids.resident['demo/jamie']}/rewards/${reward.body.data.id}/exchange`, {});
    expect(made.status).toBe(201);
    await server.app.push.settled();
    service.received.length = 0;
    expect((await ali.post(`/api/v1/reward-exchanges/${made.body.data.id}/deny`, { note: 'Pool is closed this week' })).status).toBe(200);
    await server.app.push.settled();
    const { message, plaintext } = theMessage();
    expect(message).toEqual({ type: 'changed', collections: ['reward_history', 'points', 'resident'], url: '/rewards/history', title: 'Hearth', body: 'Something new in Hearth' });
    expect(plaintext).not.toMatch(/Pool|Swimming/);
  });

  it('the checks can fail: another key cannot decrypt, another audience or key does not verify', async () => {
    expect((await subscribe(endpointFor('checks'))).status).toBe(200);
    expect((await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: await jamiesSharedEntry(), comment: 'Again' })).status).toBe(201);
    await server.app.push.settled();
    const push = service.received.at(-1)!;
    const stranger = browserSubscription();
    expect(() => decryptAes128gcm(push.body, { ...browser, authSecret: stranger.authSecret })).toThrow();
    expect(() => decryptAes128gcm(push.body, stranger)).toThrow();
    expect(() => verifyVapid(push.headers.authorization, { publicKey: server.config.vapid.publicKey, audience: 'https://fcm.googleapis.com', subject: server.config.vapid.subject })).toThrow(/aud/);
    expect(() => verifyVapid(push.headers.authorization, { publicKey: stranger.keys.p256dh, audience: service.origin, subject: server.config.vapid.subject })).toThrow(/k is not/);
    const tampered = push.headers.authorization!.replace(/t=([^.]+)\.([^.]+)\./, (_, h: string, p: string) => {
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      return `t=${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mailto:someone@else.example' })).toString('base64url')}.`;
    });
    expect(() => verifyVapid(tampered, { publicKey: server.config.vapid.publicKey, audience: service.origin, subject: 'mailto:someone@else.example' })).toThrow(/signature/);
  });

  it('a 410 from the push service removes the subscription', async () => {
    const endpoint = endpointFor('gone');
    expect((await subscribe(endpoint)).status).toBe(200);
    service.status = 410;
    expect((await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: await jamiesSharedEntry(), comment: 'Still there?' })).status).toBe(201);
    await server.app.push.settled();
    expect(service.received.length).toBeGreaterThanOrEqual(1);
    expect(await server.db.selectFrom('push_subscriptions').select('id').where('endpoint', '=', endpoint).execute()).toEqual([]);
  });
});

describe('only the allowed push service, and only with its certificate trusted', () => {
  it('the allowlist names this host and port only: another port, another name or an address is refused (422)', async () => {
    for (const endpoint of [
      `https://${service.host}/push/x`,
      `https://${service.host}:${service.port + 1}/push/x`,
      `https://other.hearth.test:${service.port}/push/x`,
      `https://127.0.0.1:${service.port}/push/x`,
      `https://localhost:${service.port}/push/x`,
      'https://fcm.googleapis.com/fcm/send/x',
    ]) {
      const res = await subscribe(endpoint);
      expect(res.status, endpoint).toBe(422);
      expect(res.body.errors, endpoint).toEqual({ 'subscription.endpoint': [pushMessages.endpointNotAllowed] });
    }
  });

  it("the server's own sender (no test certificate) does not deliver to it", async () => {
    expect((await subscribe(endpointFor('untrusted'))).status).toBe(200);
    const trusting = server.app.pushSender;
    // The test's resolver, but the system's trust store: the self-signed certificate is refused.
    server.app.pushSender = createWebPushSender(server.config.vapid, { agent: new Agent({ lookup: testLookup as never }) });
    try {
      expect((await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: await jamiesSharedEntry(), comment: 'Hello' })).status).toBe(201);
      await server.app.push.settled();
    } finally {
      server.app.pushSender = trusting;
    }
    expect(service.received).toEqual([]);
    // And the default sender would not even resolve it to a private address.
    server.app.pushSender = createWebPushSender(server.config.vapid);
    try {
      expect((await ali.post('/api/v1/projects/residents/journal/entries/comments', { entry_id: await jamiesSharedEntry(), comment: 'Hello again' })).status).toBe(201);
      await server.app.push.settled();
    } finally {
      server.app.pushSender = trusting;
    }
    expect(service.received).toEqual([]);
  });
});
