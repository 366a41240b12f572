import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import webpush from 'web-push';
import { appConfigResponseSchema } from '../../src/contract/app-config';
import { pushMessageSchema } from '../../src/contract/push';
import { ConfigError, loadConfig } from '../../server/config';
import { createWebPushSender, PushDispatch, type PushSender, type PushTarget } from '../../server/lib/push-sender';
import type { Client } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let sam: Client;

/** The fake push service: records every delivery and answers what `answer` says (201 by default). */
const sent: { target: PushTarget; payload: string }[] = [];
let answer: (target: PushTarget) => Promise<{ statusCode: number }> = async () => ({ statusCode: 201 });
const fakeSender: PushSender = (target, payload) => {
  sent.push({ target, payload });
  return answer(target);
};

beforeAll(async () => {
  server = await startTestServer();
  server.app.pushSender = fakeSender;
  ids = await demoIds(server);
  jamie = await signedIn(server, 'jamie');
  ali = await signedIn(server, 'carer.ali');
  sam = await signedIn(server, 'sam');
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  sent.length = 0;
  answer = async () => ({ statusCode: 201 });
  await server.db.deleteFrom('push_subscriptions').execute();
});

const JOURNAL_COMMENTS = '/api/v1/projects/residents/journal/entries/comments';
/** What a staff reply on a journal entry pushes: what to pull, where to go, the neutral text; nothing else. */
const expectedReplyPush = (entryId: string) => ({
  type: 'changed',
  collections: ['feedback', 'journal'],
  url: `/entries/comments/${entryId}`,
  title: 'Hearth',
  body: 'Something new in Hearth',
});

const subscription = (endpoint: string) => ({ endpoint, expirationTime: null, keys: { p256dh: `p256-${endpoint.slice(-4)}`, auth: `auth-${endpoint.slice(-4)}` } });

async function subscribe(client: Client, username: string, endpoint: string) {
  const res = await client.post('/api/v1/notifications/push/subscribe', { user_id: ids.user[`demo/${username}`], subscription: subscription(endpoint) });
  expect(res.status).toBe(200);
}

async function jamiesEntry(): Promise<string> {
  const row = await server.db
    .selectFrom('journal_entries')
    .select('id')
    .where('resident_id', '=', ids.resident['demo/jamie']!)
    .where('deleted_at', 'is', null)
    // One Ali may answer: staff comment only on entries shared with them.
    .where('description', 'like', 'Scored a goal%')
    .executeTakeFirstOrThrow();
  return row.id;
}

const endpoints = async () =>
  (await server.db.selectFrom('push_subscriptions').select('endpoint').orderBy('endpoint').execute()).map((r) => r.endpoint);

describe('push on a staff reply', () => {
  it("carer.ali's comment on jamie's entry pushes a content-free message to each of jamie's subscriptions, after the commit", async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/jamie-phone-0001');
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/jamie-tablet-0002');
    await subscribe(sam, 'sam', 'https://fcm.googleapis.com/fcm/send/sam-phone-0003');
    let committed: boolean | null = null;
    answer = async () => {
      // Sent after the commit: the comment is already there.
      const count = await server.db.selectFrom('entry_comments').select('id').where('comment', '=', 'Sounds like a great day!').execute();
      committed = count.length === 1;
      return { statusCode: 201 };
    };

    const res = await ali.post(JOURNAL_COMMENTS, { entry_id: await jamiesEntry(), comment: 'Sounds like a great day!' });
    expect(res.status).toBe(201);
    await server.app.push.settled();

    expect(committed).toBe(true);
    expect(sent.map((s) => s.target).sort((a, b) => a.endpoint.localeCompare(b.endpoint))).toEqual([
      { endpoint: 'https://fcm.googleapis.com/fcm/send/jamie-phone-0001', keys: { p256dh: 'p256-0001', auth: 'auth-0001' } },
      { endpoint: 'https://fcm.googleapis.com/fcm/send/jamie-tablet-0002', keys: { p256dh: 'p256-0002', auth: 'auth-0002' } },
    ]);
    const entryId = await jamiesEntry();
    for (const { payload } of sent) {
      expect(JSON.parse(payload)).toEqual(expectedReplyPush(entryId));
      expect(pushMessageSchema.parse(JSON.parse(payload))).toEqual(expectedReplyPush(entryId));
      expect(payload).not.toContain('great day');
      expect(payload).not.toContain('Ali');
    }
    expect(await endpoints()).toHaveLength(3);
  });

  it("the young person's own reply pushes nothing", async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/jamie-phone-0001');
    const res = await jamie.post(JOURNAL_COMMENTS, { entry_id: await jamiesEntry(), comment: 'Thanks!' });
    expect(res.status).toBe(201);
    await server.app.push.settled();
    expect(sent).toEqual([]);
  });

  it('a 410 or 404 from the push service removes that subscription; other failures keep theirs and never fail the request', async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/gone-0410');
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/unknown-0404');
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/busy-0500');
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/broken-0000');
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/fine-0201');
    answer = async (target) => {
      const code = Number(target.endpoint.slice(-4));
      if (code === 0) throw new Error('socket hang up');
      return { statusCode: code };
    };

    const res = await ali.post(JOURNAL_COMMENTS, { entry_id: await jamiesEntry(), comment: 'Checking in' });
    expect(res.status).toBe(201);
    await server.app.push.settled();

    expect(sent).toHaveLength(5);
    expect(await endpoints()).toEqual([
      'https://fcm.googleapis.com/fcm/send/broken-0000',
      'https://fcm.googleapis.com/fcm/send/busy-0500',
      'https://fcm.googleapis.com/fcm/send/fine-0201',
    ]);
  });

  it('a push service that never answers does not hold up the request', async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/slow-0001');
    let release: (value: { statusCode: number }) => void = () => undefined;
    answer = () => new Promise((resolve) => (release = resolve));
    const started = Date.now();
    const res = await ali.post(JOURNAL_COMMENTS, { entry_id: await jamiesEntry(), comment: 'Take your time' });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(sent).toHaveLength(1);
    release({ statusCode: 201 });
    await server.app.push.settled();
  });
});

describe('PushDispatch', () => {
  const logger = () => {
    const log = { warn: vi.fn(), info: vi.fn() };
    return { log, asLogger: log as unknown as FastifyBaseLogger };
  };

  it('gives up on a delivery after its deadline and logs only the push service origin', async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/secret-token-0001');
    const { log, asLogger } = logger();
    const dispatch = new PushDispatch({ db: server.db, log: asLogger, sender: () => () => new Promise(() => undefined), timeoutMs: 50 });
    dispatch.toUser({ tenantId: await tenantOf('jamie'), userId: ids.user['demo/jamie']! }, { type: 'changed', collections: ['feedback'] });
    await dispatch.settled();
    expect(log.warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(log.warn.mock.calls);
    expect(logged).toContain('https://fcm.googleapis.com');
    expect(logged).not.toContain('secret-token');
    expect(await endpoints()).toEqual(['https://fcm.googleapis.com/fcm/send/secret-token-0001']);
  });

  it('the real web-push sender never connects to a private address, whatever a stored endpoint says', async () => {
    // A listener on loopback counts connections; the stored endpoint names it through "localhost".
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    const endpoint = `https://localhost:${port}/send/secret-token-0002`;
    const browser = webpush.generateVAPIDKeys();
    await server.db
      .insertInto('push_subscriptions')
      .values({ tenant_id: await tenantOf('jamie'), user_id: ids.user['demo/jamie']!, endpoint, p256dh: browser.publicKey, auth: randomBytes(16).toString('base64url') })
      .execute();
    const { log, asLogger } = logger();
    // No allowlist here (as for a subscription stored before it existed): the sender's own lookup refuses.
    const dispatch = new PushDispatch({ db: server.db, log: asLogger, sender: () => createWebPushSender(server.config.vapid) });
    dispatch.toUser({ tenantId: await tenantOf('jamie'), userId: ids.user['demo/jamie']! }, { type: 'changed', collections: ['feedback'] });
    await dispatch.settled();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    expect(connections).toBe(0);
    expect(log.warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(log.warn.mock.calls);
    expect(logged).toContain('does not resolve to a public address');
    expect(logged).not.toContain('secret-token');
    expect(await endpoints()).toEqual([endpoint]);
  });

  it('the app skips a stored subscription that is not on the allowlist (stored before it, or before it changed)', async () => {
    const allowed = 'https://fcm.googleapis.com/fcm/send/fine-0001';
    await subscribe(jamie, 'jamie', allowed);
    await server.db
      .insertInto('push_subscriptions')
      .values({ tenant_id: await tenantOf('jamie'), user_id: ids.user['demo/jamie']!, endpoint: 'https://127.0.0.1/send/old-0002', p256dh: 'BPub', auth: 'auth' })
      .execute();
    expect((await ali.post(JOURNAL_COMMENTS, { entry_id: await jamiesEntry(), comment: 'Hello' })).status).toBe(201);
    await server.app.push.settled();
    expect(sent.map((s) => s.target.endpoint)).toEqual([allowed]);
    expect(await endpoints()).toHaveLength(2);
  });
});

describe('what staff writes push (issue 10)', () => {
  it('a new objective and a staff comment on it open the objective; nothing names it', async () => {
    await subscribe(jamie, 'jamie', 'https://fcm.googleapis.com/fcm/send/jamie-0001');
    const forms = (await ali.get<{ data: { id: string; name: string }[] }>('/api/v1/forms')).body.data;
    const created = await ali.post<{ data: { id: string } }>(`/api/v1/projects/residents/${ids.resident['demo/jamie']}/tasks`, {
      form_id: forms[0]!.id, title: 'Secret plan for Saturday', task_date: '2026-11-20',
    });
    expect(created.status).toBe(201);
    const logId = created.body.data.id;
    await server.app.push.settled();
    const expected = { type: 'changed', collections: ['tasks'], url: `/objectives/${logId}`, title: 'Hearth', body: 'Something new in Hearth' };
    expect(sent.map((s) => JSON.parse(s.payload))).toEqual([expected]);
    expect(sent[0]!.payload).not.toContain('Secret');
    sent.length = 0;
    expect((await ali.post('/api/v1/tasks/logs/comments', { task_log_id: logId, comment: 'Remember your trainers' })).status).toBe(201);
    await server.app.push.settled();
    expect(sent.map((s) => JSON.parse(s.payload))).toEqual([expected]);
    sent.length = 0;
    // The young person's own comment pushes nothing.
    expect((await jamie.post('/api/v1/tasks/logs/comments', { task_log_id: logId, comment: 'Will do' })).status).toBe(201);
    await server.app.push.settled();
    expect(sent).toEqual([]);
  });
});

describe('VAPID keys', () => {
  const base = () => ({ NODE_ENV: 'test', APP_KEY: randomBytes(32).toString('base64'), DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-vapid-')) });

  it('are generated once into DATA_DIR/vapid.json (0600) and reused', () => {
    const env = base();
    const first = loadConfig(env);
    const file = join(env.DATA_DIR, 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ publicKey: first.vapid.publicKey, privateKey: first.vapid.privateKey });
    expect(Buffer.from(first.vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(first.vapid.subject).toBe('mailto:no-reply@hearth.localhost');
    expect(loadConfig(env).vapid).toEqual(first.vapid);
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither) with VAPID_SUBJECT', () => {
    const keys = webpush.generateVAPIDKeys();
    const env = { ...base(), VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'https://hearth.example.org/contact' };
    expect(loadConfig(env).vapid).toEqual({ ...keys, subject: 'https://hearth.example.org/contact' });
    expect(() => loadConfig({ ...base(), VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => loadConfig({ ...base(), VAPID_SUBJECT: 'hearth' })).toThrow(/VAPID_SUBJECT/);
  });

  it('a damaged vapid.json is a readable configuration error, not a new key pair', () => {
    const env = base();
    writeFileSync(join(env.DATA_DIR, 'vapid.json'), 'not json');
    expect(() => loadConfig(env)).toThrow(/vapid\.json/);
  });

  it('the public key is in GET /api/app-config', async () => {
    const res = await server.client().get('/api/app-config');
    expect(appConfigResponseSchema.parse(res.body).data.push_public_key).toBe(server.config.vapid.publicKey);
  });
});

async function tenantOf(username: string): Promise<string> {
  const row = await server.db.selectFrom('users').select('tenant_id').where('id', '=', ids.user[`demo/${username}`]!).executeTakeFirstOrThrow();
  return row.tenant_id;
}
