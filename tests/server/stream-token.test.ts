import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endedMessage } from '../../server/lib/postgres-notifier';
import { WAIT_MS } from '../support/timeouts';
import { Client } from './support/client';
import { DEMO_PASSWORD, demoIds, openStream, type OpenStream } from './support/session';
import { startPeerServer, startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * A password change gives this browser's session a new token in the same row (security review of
 * stop 44): an event stream opened with the old token (a thief's, from a copy of the cookie; or this
 * browser's own, opened before the change) ends at once, on every process; the browser's new cookie
 * opens a stream that hears the next change; other people's streams stay. The stream's ping checks
 * the token too, should the notice be lost.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const JOURNAL = '/api/v1/projects/residents/journal/entries';
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
});
afterAll(async () => {
  await server?.close();
});

/** Each person's password as the tests left it (every change picks a new one). */
const passwords = new Map<string, string>();
let changes = 0;

async function changePassword(client: Client, username: string): Promise<void> {
  const current = passwords.get(username) ?? DEMO_PASSWORD;
  const password = `a-new-longer-password-${++changes}`;
  const res = await client.put(`/api/v1/users/${ids.user[`demo/${username}`]}/change-password`, { current, password, password_confirmation: password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  passwords.set(username, password);
}

async function signIn(on: TestServer, username: string): Promise<Client> {
  const client = on.client();
  expect((await client.login(username, passwords.get(username) ?? DEMO_PASSWORD)).status).toBe(200);
  return client;
}

/** The same cookies in another client: a copy taken from this browser, or this browser talking to another process. */
function copyOf(client: Client, on: TestServer): Client {
  const copy = new Client(on.base);
  for (const [name, value] of client.jar) copy.jar.set(name, value);
  return copy;
}

/** Resolves when the server ends the stream; fails after `ms` (the ping that used to notice comes every 25 s). */
function endsWithin(stream: OpenStream, what: string, ms = 10_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
  });
  return Promise.race([stream.ended, late]).finally(() => clearTimeout(timer));
}

/** Whether the stream is still open: the server ended none of it yet. */
function watchEnd(stream: OpenStream): () => boolean {
  let ended = false;
  void stream.ended.then(() => (ended = true));
  return () => ended;
}

async function write(client: Client, on: TestServer, description: string): Promise<void> {
  const res = await postForm(on.base, client, JOURNAL, [['description', description]]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('a password change ends the streams opened with the old token', () => {
  it("a copied cookie's stream and this browser's own end at once; the new cookie's stream hears the next change; another young person's stays", async () => {
    const browser = await signIn(server, 'jamie');
    const thief = copyOf(browser, server);
    const sam = await signIn(server, 'sam');
    const [stolen, own, other] = await Promise.all([openStream(server, thief), openStream(server, browser), openStream(server, sam)]);
    const reopened: OpenStream[] = [];
    try {
      await Promise.all([stolen, own, other].map((s) => s.waitFor(/: connected/, WAIT_MS)));
      const otherEnded = watchEnd(other);

      await changePassword(browser, 'jamie');
      await endsWithin(stolen, "the copied cookie's stream");
      await endsWithin(own, "the browser's stream opened with the old token");

      // The copy cannot open another; the browser's new cookie can, and it hears the next change.
      const again = await openStream(server, thief);
      reopened.push(again);
      expect(again.status).toBe(401);
      const fresh = await openStream(server, browser);
      reopened.push(fresh);
      expect(fresh.status).toBe(200);
      await fresh.waitFor(/: connected/, WAIT_MS);
      await write(browser, server, 'After the password change');
      await fresh.waitFor(/event: change\ndata: \{"collections":\["journal"\]\}/, WAIT_MS);

      // Sam's session is not Jamie's: their stream still carries their own change.
      await write(sam, server, "Sam's day");
      await other.waitFor(/event: change/, WAIT_MS);
      expect(otherEnded()).toBe(false);
    } finally {
      for (const s of [stolen, own, other, ...reopened]) s.close();
    }
  });

  it('when the notice is lost, the next ping ends a stream opened with the old token', async () => {
    const browser = await signIn(server, 'jamie');
    const thief = copyOf(browser, server);
    // A notice that never arrives (a dropped feed, a process that missed it): the ping is the backstop.
    const lost = vi.spyOn(server.app.notifier, 'endSessions').mockImplementation(() => undefined);
    // Only intervals made from now on are fake: the stream's ping, which comes when the test says.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let stolen: OpenStream | null = null;
    try {
      stolen = await openStream(server, thief);
      await stolen.waitFor(/: connected/, WAIT_MS);
      await changePassword(browser, 'jamie');
      expect(lost).toHaveBeenCalled();
      vi.advanceTimersToNextTimer();
      // Without the token check the session is alive and the ping is written instead.
      await Promise.race([stolen.ended, stolen.waitFor(/: ping/, WAIT_MS)]);
      expect(stolen.text()).not.toContain(': ping');
      await endsWithin(stolen, "the copied cookie's stream at its ping");
    } finally {
      vi.useRealTimers();
      lost.mockRestore();
      stolen?.close();
    }
  });
});

describe.runIf(onPostgres)('on PostgreSQL, across two processes', () => {
  let peer: TestServer;
  beforeAll(async () => {
    peer = await startPeerServer(server);
  });
  afterAll(async () => {
    await peer?.close();
  });

  it('a password change through A ends the old-token streams held on B; the new cookie opens one on B that hears the next change; another young person keeps theirs', async () => {
    const browser = await signIn(server, 'jamie');
    const sam = await signIn(server, 'sam');
    const [stolen, own, other] = await Promise.all([openStream(peer, copyOf(browser, peer)), openStream(peer, copyOf(browser, peer)), openStream(peer, copyOf(sam, peer))]);
    let fresh: OpenStream | null = null;
    try {
      await Promise.all([stolen, own, other].map((s) => s.waitFor(/: connected/, WAIT_MS)));
      const otherEnded = watchEnd(other);

      await changePassword(browser, 'jamie');
      await endsWithin(stolen, "the copied cookie's stream on B");
      await endsWithin(own, "the browser's old-token stream on B");

      fresh = await openStream(peer, copyOf(browser, peer));
      expect(fresh.status).toBe(200);
      await fresh.waitFor(/: connected/, WAIT_MS);
      await write(browser, server, 'Through A, heard on B');
      await fresh.waitFor(/event: change\ndata: \{"collections":\["journal"\]\}/, WAIT_MS);

      await write(sam, server, "Sam's day, through A");
      await other.waitFor(/event: change/, WAIT_MS);
      expect(otherEnded()).toBe(false);
    } finally {
      for (const s of [stolen, own, other]) s.close();
      fresh?.close();
    }
  });
});

describe('the session-end message of a password change (lib/postgres-notifier.ts)', () => {
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  it('names the renewed session by its id, and carries no token or hash', () => {
    const message = endedMessage('origin', { tenantId: uuid(1), userId: uuid(5), exceptSessionId: uuid(6), renewedSessionId: uuid(6) });
    expect(JSON.parse(message)).toEqual({ v: 1, o: 'origin', k: 'ended', e: { t: uuid(1), u: uuid(5), x: uuid(6), n: uuid(6) } });
  });
});
