import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from './support/client';
import { demoIds, openStream, signedIn, type OpenStream } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { postForm } from './support/uploads';

/**
 * Issue 12, findings 7 and 8: the event stream tells staff only about entries they may read, and
 * it closes the moment its session ends (logout, a password change elsewhere), not at its next ping.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let ali: Client;
let beth: Client;
let priya: Client;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  [jamie, ali, beth, priya] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali'), signedIn(server, 'carer.beth'), signedIn(server, 'manager.priya')]);
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = '/api/v1/projects/residents/journal/entries';
const changes = (stream: OpenStream) => stream.text().split('event: change').length - 1;

async function write(fields: [string, string][]): Promise<string> {
  const res = await postForm<{ data: { id: string } }>(server.base, jamie, JOURNAL, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

describe('finding 7: the staff stream hears only of entries the person may read', () => {
  it("a private entry reaches jamie's stream and no staff stream; one shared with Ali reaches Ali only; with management, Priya", async () => {
    const [own, aliStream, bethStream, priyaStream] = await Promise.all([openStream(server, jamie), openStream(server, ali), openStream(server, beth), openStream(server, priya)]);
    try {
      await Promise.all([own, aliStream, bethStream, priyaStream].map((s) => s.waitFor(/: connected/)));
      // Events reach each stream in order: once a stream has its last expected event, any earlier
      // one meant for it would have arrived before it. So the counts below are exact.
      await write([['description', 'Just for me']]);
      await write([['description', 'For Ali'], ['shared_with[]', ids.user['demo/carer.ali']!]]);
      await write([['description', 'For the managers'], ['shared_with_management', '1']]);
      await write([['description', 'For everyone'], ['shared_with[]', ids.user['demo/carer.ali']!], ['shared_with[]', ids.user['demo/carer.beth']!], ['shared_with_management', '1']]);
      const all = (n: number) => new RegExp(`(event: change[\\s\\S]*){${n}}`);
      await own.waitFor(all(4));
      await aliStream.waitFor(all(2));
      await priyaStream.waitFor(all(2));
      await bethStream.waitFor(all(1));
      expect([changes(own), changes(aliStream), changes(priyaStream), changes(bethStream)]).toEqual([4, 2, 2, 1]);
    } finally {
      for (const s of [own, aliStream, bethStream, priyaStream]) s.close();
    }
  });

  it("unsharing tells Ali once (his device must drop the entry)", async () => {
    const entryId = await write([['description', 'Talk later?'], ['shared_with[]', ids.user['demo/carer.ali']!]]);
    const aliStream = await openStream(server, ali);
    try {
      await aliStream.waitFor(/: connected/);
      expect((await postForm(server.base, jamie, `${JOURNAL}/${entryId}?_method=PUT`, [['shared_with[]', '']])).status).toBe(200);
      await aliStream.waitFor(/event: change/);
      expect(changes(aliStream)).toBe(1);
    } finally {
      aliStream.close();
    }
  });
});

describe('finding 8: the stream closes when its session ends', () => {
  it('on logout, at once', async () => {
    const device = await signedIn(server, 'jamie');
    const stream = await openStream(server, device);
    await stream.waitFor(/: connected/);
    const started = Date.now();
    expect((await device.post('/api/auth/logout', {})).status).toBeLessThan(300);
    await stream.ended;
    // The ping that used to notice comes every 25 s.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("on a password change elsewhere: the other device's stream closes; this device's new cookie opens one that carries events", async () => {
    const phone = await signedIn(server, 'sam');
    const tablet = await signedIn(server, 'sam');
    const [phoneStream, tabletStream] = await Promise.all([openStream(server, phone), openStream(server, tablet)]);
    try {
      await Promise.all([phoneStream.waitFor(/: connected/), tabletStream.waitFor(/: connected/)]);
      const me = (await phone.get('/api/v1/auth/user')).body as { user: { id: string } };
      const changed = await phone.request('PUT', `/api/v1/users/${me.user.id}/change-password`, {
        json: { current: 'hearth-demo-1', password: 'a-new-longer-password-1', password_confirmation: 'a-new-longer-password-1' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const changedAt = Date.now();
      await tabletStream.ended;
      expect(Date.now() - changedAt).toBeLessThan(10_000);
      // The phone's stream was opened with the token the change replaced (tests/server/stream-token.test.ts):
      // it ends too, and the phone's new cookie opens a stream that carries events.
      await phoneStream.ended;
      expect(Date.now() - changedAt).toBeLessThan(10_000);
      const reopened = await openStream(server, phone);
      try {
        await reopened.waitFor(/: connected/);
        const resident = (await phone.get('/api/v1/auth/user')).body as { user: { resident: { id: string } } };
        expect((await phone.request('PUT', `/api/v1/projects/residents/${resident.user.resident.id}/app-settings`, { json: { journal_colour: 'mint' } })).status).toBe(200);
        await reopened.waitFor(/event: change/);
      } finally {
        reopened.close();
      }
    } finally {
      phoneStream.close();
      tabletStream.close();
    }
  });
});
