import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_FALLBACK_URL, readPushNotice } from '../../src/contract/push-notice';
import { ALL_PAYLOADS, XSS_VECTORS } from '../support/xss-vectors';
import type { Client, JsonResponse } from './support/client';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * Issue 12's XSS sweep, the server side. The server makes no HTML from what people write: mail is
 * text only (server/lib/mailer.ts has no html part, and no message carries what a person wrote),
 * a push says only that something changed (tests/server/push-send.test.ts checks its exact
 * content), the development mailbox is JSON, files are served sandboxed and never sniffed. What
 * is left to prove: the vectors written through the API come back byte for byte as JSON, marked
 * never to be sniffed as HTML, and no answer, the PWA's HTML shell included, reflects them.
 */
let server: TestServer;
let jamie: Client;
let ali: Client;
let aliId: string;

beforeAll(async () => {
  server = await startTestServer();
  jamie = await signedIn(server, 'jamie');
  ali = await signedIn(server, 'carer.ali');
  aliId = (await demoIds(server)).user['demo/carer.ali']!;
});
afterAll(async () => {
  await server?.close();
});

const ENTRIES = '/api/v1/projects/residents/journal/entries';
const COMMENTS = `${ENTRIES}/comments`;

function expectJson(res: JsonResponse<unknown>, where: string) {
  expect(res.headers.get('content-type'), where).toMatch(/^application\/json/);
  expect(res.headers.get('x-content-type-options'), where).toBe('nosniff');
}

describe('what people write, through the API', () => {
  it('fits one entry and one comment (the vectors joined are within the 5,000-character limits)', () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(50);
    expect(ALL_PAYLOADS.length).toBeLessThanOrEqual(5000);
  });

  it('an entry, a staff comment and a reply holding every vector come back as JSON text, byte for byte', async () => {
    const created = await jamie.post(ENTRIES, { description: ALL_PAYLOADS, shared_with: [aliId] });
    expect(created.status).toBe(201);
    expectJson(created, 'create');
    const entry = created.body as { data: { id: string; description: string } };
    expect(entry.data.description).toBe(ALL_PAYLOADS);

    const staff = await ali.post(COMMENTS, { entry_id: entry.data.id, comment: ALL_PAYLOADS });
    expect(staff.status).toBe(201);
    expectJson(staff, 'staff comment');
    const reply = await jamie.post(COMMENTS, { entry_id: entry.data.id, comment: ALL_PAYLOADS });
    expect(reply.status).toBe(201);

    for (const [where, path, client] of [
      ['the entry, as the young person reads it', `${ENTRIES}/${entry.data.id}`, jamie],
      ['the entry, as staff read it', `${ENTRIES}/${entry.data.id}`, ali],
      ['the thread', `${ENTRIES}/${entry.data.id}/comments`, jamie],
      ['the list', ENTRIES, jamie],
      ['the feedback', '/api/v1/projects/residents/feedback?relations[0]=entry&relations[1]=latest_comment', jamie],
    ] as const) {
      const res = await client.get(path);
      expect(res.status, where).toBe(200);
      expectJson(res, where);
      // Parsed, every string that held a vector is exactly what was written: not escaped, cut or "cleaned".
      const strings: string[] = [];
      JSON.stringify(res.body, (_key, value: unknown) => {
        if (typeof value === 'string' && value.includes('__xss(')) strings.push(value);
        return value;
      });
      expect(strings.length, where).toBeGreaterThan(0);
      for (const value of strings) expect(ALL_PAYLOADS.startsWith(value.replace(/…$/, '')) || value === ALL_PAYLOADS, where).toBe(true);
    }
  });

  it('no answer reflects a vector: not an unknown API path, not a bad query, not the HTML shell', async () => {
    const shell = readFileSync(join(server.config.staticDir, 'index.html'), 'utf8');
    for (const vector of XSS_VECTORS) {
      const segment = encodeURIComponent(vector.payload);
      const api = await jamie.get(`/api/v1/${segment}`);
      expect(api.status, vector.label).toBeGreaterThanOrEqual(400);
      expect(api.status, vector.label).toBeLessThan(500);
      expectJson(api, vector.label);
      expect(JSON.stringify(api.body), vector.label).not.toContain('__xss');

      const search = await jamie.get(`${ENTRIES}?search_term=${segment}&sort[0][0]=${segment}`);
      expect(search.status, vector.label).toBeLessThan(500);
      expectJson(search, vector.label);
      expect(JSON.stringify((search.body as { message?: unknown; errors?: unknown }).message ?? ''), vector.label).not.toContain('__xss');

      // A screen's address: the shell as it is, or (a path the static files refuse, e.g. with a
      // backslash) a JSON error that names nothing of it.
      const page = await jamie.get(`/journal/${segment}`, { accept: 'text/html' });
      if ((page.headers.get('content-type') ?? '').startsWith('text/html')) expect(page.body, vector.label).toBe(shell);
      else {
        expectJson(page, vector.label);
        expect(page.status, vector.label).toBeLessThan(500);
        expect(JSON.stringify(page.body), vector.label).not.toContain('__xss');
      }
    }
  });
});

describe('a push message', () => {
  it('opens only a path of this app: a vector as its screen, alone or after a slash, opens the dashboard', () => {
    for (const vector of XSS_VECTORS) {
      for (const url of [vector.payload, `/${vector.payload}`, `//${vector.payload}`, `/journal/${vector.payload}`]) {
        const notice = readPushNotice({ type: 'changed', collections: ['journal'], url });
        expect(notice.url, `${vector.label}: ${url}`).toBe(PUSH_FALLBACK_URL);
      }
    }
  });
});
