import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../src/contract/app-config';
import { sha256 } from '../../server/lib/crypto';
import { authLimits } from '../../server/lib/auth-limits';
import type { Client } from './support/client';
import { startTestServer, type TestServer } from './support/server';

/**
 * Issue 13, server throughput: a signed-in request costs one session lookup and no write; the idle
 * expiry moves forward at most once a minute (authLimits.touchEveryMs), however many requests (or
 * processes) arrive at once. Nothing about a session is kept between requests, so whatever ends one
 * (sign-out, a password change, a removed account, its expiry) is refused on the very next request.
 *
 * Writes are counted where they happen: a trigger on `sessions` counts every row it updates.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await sql`create table session_writes (n integer not null)`.execute(server.db);
  await sql`insert into session_writes values (0)`.execute(server.db);
  await sql.raw(`create function count_session_write() returns trigger language plpgsql as $$
    begin update session_writes set n = n + 1; return new; end $$`).execute(server.db);
  await sql`create trigger session_writes after update on sessions for each row execute function count_session_write()`.execute(server.db);
});
afterAll(async () => server?.close());

const writes = async () => (await sql<{ n: number }>`select n from session_writes`.execute(server.db)).rows[0]!.n;
const hashOf = (client: Client) => sha256(client.jar.get(SESSION_COOKIE)!);
const rowOf = (client: Client) => server.db.selectFrom('sessions').selectAll().where('token_hash', '=', hashOf(client)).executeTakeFirstOrThrow();
/** As if the last touch was `seconds` ago (the row only: no clock is faked). */
const touchedAgo = (client: Client, seconds: number) =>
  server.db.updateTable('sessions').set({ updated_at: sql`now() - make_interval(secs => ${seconds})` }).where('token_hash', '=', hashOf(client)).execute();
const account = (client: Client) => client.get('/api/v1/auth/user');

async function signedIn(username = 'jamie'): Promise<Client> {
  const client = server.client();
  expect((await client.login(username, 'hearth-demo-1')).status).toBe(200);
  return client;
}

describe('the idle expiry is touched at most once a minute', () => {
  let before: number;
  beforeEach(async () => {
    before = await writes();
  });

  it('requests within the minute write nothing to the sessions table', async () => {
    const client = await signedIn();
    const start = await writes();
    for (let i = 0; i < 5; i++) expect((await account(client)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => account(client)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await writes()).toBe(start);
  });

  it('once the minute is over, twenty requests at once write once, and push the idle expiry forward', async () => {
    const client = await signedIn();
    await touchedAgo(client, authLimits.touchEveryMs / 1000 + 1);
    const stale = await rowOf(client);
    const start = await writes();
    const answers = await Promise.all(Array.from({ length: 20 }, () => account(client)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await writes()).toBe(start + 1);
    const touched = await rowOf(client);
    expect(touched.idle_expires_at.getTime()).toBeGreaterThan(stale.idle_expires_at.getTime());
    expect(touched.updated_at.getTime()).toBeGreaterThan(stale.updated_at.getTime());
    // And the next requests are within the new minute again.
    for (let i = 0; i < 5; i++) expect((await account(client)).status).toBe(200);
    expect(await writes()).toBe(start + 1);
  });

  it('just before the minute is over, nothing is written', async () => {
    const client = await signedIn();
    await touchedAgo(client, authLimits.touchEveryMs / 1000 - 5);
    const start = await writes();
    expect((await account(client)).status).toBe(200);
    expect(await writes()).toBe(start);
  });

  it('never past the absolute expiry', async () => {
    const client = await signedIn();
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    await server.db.updateTable('sessions').set({ absolute_expires_at: soon }).where('token_hash', '=', hashOf(client)).execute();
    await touchedAgo(client, authLimits.touchEveryMs / 1000 + 1);
    expect((await account(client)).status).toBe(200);
    expect((await rowOf(client)).idle_expires_at.getTime()).toBe(soon.getTime());
  });

  it('an expired session is not revived by a touch that was due', async () => {
    const client = await signedIn();
    await touchedAgo(client, authLimits.touchEveryMs / 1000 + 1);
    await server.db.updateTable('sessions').set({ idle_expires_at: sql`now() - interval '1 second'` }).where('token_hash', '=', hashOf(client)).execute();
    const start = await writes();
    expect((await account(client)).status).toBe(401);
    expect(await writes()).toBe(start);
  });

  it('counts writes (a guard on the trigger above)', async () => {
    const client = await signedIn();
    const start = await writes();
    await touchedAgo(client, 1);
    expect(await writes()).toBe(start + 1);
    expect(start).toBeGreaterThanOrEqual(before);
  });
});

describe('an ended session is refused at once', () => {
  it('after sign-out: the next read is 401 and the next write 419', async () => {
    const client = await signedIn();
    const cookies = new Map(client.jar);
    expect((await account(client)).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    const old = server.client();
    for (const [name, value] of cookies) old.jar.set(name, value);
    expect((await account(old)).status).toBe(401);
    // The old token was bound to the session that ended (the client echoes it as X-XSRF-TOKEN).
    expect(old.jar.get(CSRF_COOKIE)).toBeTruthy();
    expect((await old.post('/api/auth/logout')).status).toBe(419);
  });

  it('after a password change on another device: the next request is 401', async () => {
    const phone = await signedIn('sam');
    const tablet = await signedIn('sam');
    expect((await account(tablet)).status).toBe(200);
    const userId = (await rowOf(phone)).user_id!;
    const path = `/api/v1/users/${userId}/change-password`;
    expect((await phone.put(path, { current: 'hearth-demo-1', password: 'a-brand-new-pass', password_confirmation: 'a-brand-new-pass' })).status).toBe(200);
    expect((await account(tablet)).status).toBe(401);
    expect((await account(phone)).status).toBe(200);
    expect((await phone.put(path, { current: 'a-brand-new-pass', password: 'hearth-demo-1', password_confirmation: 'hearth-demo-1' })).status).toBe(200);
  });

  it('after the row is removed (signed out everywhere): the next request is 401', async () => {
    const client = await signedIn();
    expect((await account(client)).status).toBe(200);
    await server.db.deleteFrom('sessions').where('token_hash', '=', hashOf(client)).execute();
    expect((await account(client)).status).toBe(401);
  });

  it('after the person is removed: the next request is 401', async () => {
    const client = await signedIn('carer.ali');
    expect((await account(client)).status).toBe(200);
    const userId = (await rowOf(client)).user_id!;
    await server.db.updateTable('users').set({ deleted_at: sql`now()` }).where('id', '=', userId).execute();
    try {
      expect((await account(client)).status).toBe(401);
    } finally {
      await server.db.updateTable('users').set({ deleted_at: null }).where('id', '=', userId).execute();
    }
  });
});
