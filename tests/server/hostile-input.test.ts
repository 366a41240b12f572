import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { Client } from './support/client';
import { browserHeaders, demoIds, signedIn } from './support/session';
import { postForm } from './support/uploads';
import { startTestServer, type TestServer } from './support/server';

/**
 * Issue 12, findings 1 and 4: text that cannot be stored (NUL, lone surrogates) and malformed
 * multipart bodies are the sender's mistake, answered 4xx with the field named, never a 500.
 */
let server: TestServer;
let jamie: Client;

beforeAll(async () => {
  server = await startTestServer();
  jamie = await signedIn(server, 'jamie');
});
afterAll(async () => {
  await server?.close();
});

const JOURNAL = '/api/v1/projects/residents/journal/entries';

describe('finding 1: a NUL byte or a lone surrogate is a 422 naming the field, before sign-in too', () => {
  it('in the login form', async () => {
    const client = server.client();
    await client.csrf();
    const res = await client.post('/api/auth/login', { username: 'jam\u0000ie', password: 'x', client_site: 'demo' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, errors: { username: [chosen.unsavableText] } });
  });

  it('in a journal entry, nested fields and a JSON key', async () => {
    for (const body of [
      { description: 'a\u0000b' },
      { description: 'half a pair \uD83D here' },
      { description: 'ok', reaction: '\uDE00' },
      { description: 'ok', shared_with: ['\u0000'] },
      { description: 'ok', ['k\u0000']: 1 },
    ]) {
      const res = await jamie.post(JOURNAL, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.values((res.body as { errors: Record<string, string[]> }).errors).flat()).toContain(chosen.unsavableText);
    }
    // A whole emoji (a proper surrogate pair) is fine.
    expect((await jamie.post(JOURNAL, { description: 'pancakes 🥞' })).status).toBe(201);
  });

  it('in a query string and a path', async () => {
    const search = await jamie.get(`${JOURNAL}?search_term=a%00b`);
    expect(search.status).toBe(422);
    expect(search.body).toMatchObject({ errors: { search_term: [chosen.unsavableText] } });
    const filter = await jamie.get(`${JOURNAL}?filters[0][0]=description&filters[0][1]=%3D&filters[0][2]=a%00`);
    expect(filter.status).toBe(422);
    const path = await jamie.get(`${JOURNAL}/a%00b`);
    expect(path.status).toBeGreaterThanOrEqual(400);
    expect(path.status).toBeLessThan(500);
  });

  it('in a multipart field', async () => {
    const res = await postForm(server.base, jamie, JOURNAL, [['description', 'a\u0000b']]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ errors: { description: [chosen.unsavableText] } });
  });
});

describe('finding 4: a malformed multipart body is a 4xx', () => {
  it('without a boundary', async () => {
    const res = await jamie.request('POST', JOURNAL, { body: 'description=x', headers: { 'content-type': 'multipart/form-data' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('cut off in the middle of a part', async () => {
    const body = '--XyZ\r\nContent-Disposition: form-data; name="description"\r\n\r\nhalf of it';
    const res = await jamie.request('POST', JOURNAL, { body, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('cut off in a file part', async () => {
    const body = '--XyZ\r\nContent-Disposition: form-data; name="files[0]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n';
    const res = await jamie.request('POST', JOURNAL, { body, headers: { 'content-type': 'multipart/form-data; boundary=XyZ' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('finding 2: impossible dates and times are a 422 naming the field', () => {
  it('in a journal entry', async () => {
    for (const [field, value] of [
      ['entry_time', '99:99'],
      ['entry_time', '23:60'],
      ['entry_date', '0000-01-01'],
      ['entry_date', '2026-02-30'],
    ] as const) {
      const res = await jamie.post(JOURNAL, { description: 'a day', entry_date: '2026-01-10', entry_time: '10:00', [field]: value });
      expect(res.status, `${field}=${value}`).toBe(422);
      expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toContain(field);
    }
  });

  it('in a checkpoint, a filter and the calendar and rota queries', async () => {
    const checkpoint = await jamie.get(`${JOURNAL}?checkpoint[updated_at]=2026-13-45T99:99:99Z&checkpoint[id]=x`);
    expect(checkpoint.status).toBe(422);
    expect(checkpoint.body).toMatchObject({ errors: { checkpoint: expect.any(Array) } });
    const filter = await jamie.get(`${JOURNAL}?filters[0][0]=entry_date&filters[0][1]=%3D&filters[0][2]=2026-02-30`);
    expect(filter.status).toBe(422);
    expect(filter.body).toMatchObject({ errors: { filters: expect.any(Array) } });
    const account = (await jamie.get('/api/v1/auth/user')).body as { user: { resident: { id: string } } };
    const residentId = account.user.resident.id;
    const instances = await jamie.get(`/api/v1/residents/${residentId}/instances?start_date=2026-13-45`);
    expect(instances.status).toBe(422);
    expect(instances.body).toMatchObject({ errors: { start_date: expect.any(Array) } });
    const roster = await jamie.get('/api/v1/rotas/staff-roster?date=2026-99-99');
    expect(roster.status).toBe(422);
    expect(roster.body).toMatchObject({ errors: { date: expect.any(Array) } });
  });
});

describe('finding 1: an escaped NUL inside JSON text in a form field (answers) is a 422, not a 500 from jsonb', () => {
  it('in a staff fill of an objective', async () => {
    const ali = await signedIn(server, 'carer.ali');
    const account = (await jamie.get('/api/v1/auth/user')).body as { user: { resident: { id: string } } };
    const forms = (await ali.get('/api/v1/forms')).body as { data: { id: string; name: string }[] };
    const form = forms.data.find((f) => f.name === 'Independence skills')!;
    const created = await ali.post(`/api/v1/projects/residents/${account.user.resident.id}/tasks`, { form_id: form.id, title: 'Hostile answers', task_date: '2026-11-20' });
    expect(created.status).toBe(201);
    const logId = (created.body as { data: { id: string } }).data.id;
    const res = await postForm<{ errors?: Record<string, string[]> }>(server.base, ali, `/api/v1/tasks/logs/${logId}?_method=PUT`, [
      ['answers', JSON.stringify({ what_did_you_do: 'a\u0000b' })],
    ]);
    expect(res.status).toBe(422);
    expect(Object.values(res.body.errors ?? {}).flat()).toContain(chosen.unsavableText);
  });
});

describe('finding 9: a shared_with that is not a list of ids is a 422, never an empty list', () => {
  it('on a create and on an update, which keeps the sharing as it was', async () => {
    const ali = (await demoIds(server)).user['demo/carer.ali']!;
    for (const shared_with of [{ a: 'b' }, 7, [{ id: ali }], [null]]) {
      const res = await jamie.post(JOURNAL, { description: 'hostile share', shared_with });
      expect(res.status, JSON.stringify(shared_with)).toBe(422);
      expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors).filter((key) => key.startsWith('shared_with')), JSON.stringify(res.body)).not.toEqual([]);
    }
    const created = await jamie.post<{ data: { id: string; shared_with: string[] } }>(JOURNAL, { description: 'For Ali', shared_with: [ali] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const update = await jamie.post(`${JOURNAL}/${id}?_method=PUT`, { description: 'For Ali', shared_with: { a: 'b' } });
    expect(update.status).toBe(422);
    const shown = await jamie.get<{ data: { shared_with: string[] } }>(`${JOURNAL}/${id}`);
    expect(shown.body.data.shared_with).toEqual([ali]);
    // An empty list still unshares: that is a choice, not a mistake.
    expect((await jamie.post(`${JOURNAL}/${id}?_method=PUT`, { description: 'For Ali', shared_with: [] })).status).toBe(200);
  });
});

describe('found by the route fuzz (tests/server/fuzz-routes.test.ts)', () => {
  it('a HEAD on the change stream answers with its headers at once, not never', async () => {
    // Node sends nothing of a HEAD answer, headers included, until it ends; the stream never ended.
    const res = await fetch(`${server.base}/api/v1/sync/stream`, { method: 'HEAD', headers: { cookie: browserHeaders(jamie).cookie! }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
  });
});
