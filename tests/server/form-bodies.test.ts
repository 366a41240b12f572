import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from './support/client';
import { signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * plugins/multipart-bodies.ts is registered on one scope in app.ts: the routes that take forms
 * accept url-encoded bodies, and every other route stays JSON only (415 for a form).
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

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form bodies', () => {
  it('a form route takes a url-encoded body (bracket names parsed)', async () => {
    const res = await jamie.request('POST', '/api/v1/projects/residents/journal/entries', { body: 'description=From%20a%20form&reaction=', headers: FORM });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as { data: { description: string } }).data.description).toBe('From a form');
  });

  it('a JSON route refuses a url-encoded body', async () => {
    const res = await jamie.request('POST', '/api/v1/notifications/push/subscribe', { body: 'endpoint=x', headers: FORM });
    expect(res.status).toBe(415);
  });
});
