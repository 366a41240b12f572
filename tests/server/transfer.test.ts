import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPageSchema } from '../../src/contract/documents';
import { precompress } from '../../scripts/precompress';
import { COMPRESS_THRESHOLD_BYTES } from '../../server/plugins/compression';
import type { Client } from './support/client';
import { browserHeaders, demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';

/**
 * Transfer (issue 13): precompressed assets at build, served with `preCompressed`; API JSON
 * compressed from 1 KiB; never the change stream, bytes (ranges) or sign-in answers.
 *
 * Requests go through node:http, not fetch: fetch asks for gzip by itself and decodes what comes
 * back, which would hide exactly what these tests look at.
 */
interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<RawResponse> {
  const url = new URL(path, server.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The body as its Content-Encoding says it was sent. */
function decoded(res: RawResponse): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body);
  if (encoding === 'gzip') return gunzipSync(res.body);
  if (encoding === undefined || encoding === 'identity') return res.body;
  throw new Error(`unexpected content-encoding ${encoding}`);
}

const varyTokens = (res: RawResponse) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);

/** A built PWA, written the way `npm run build` writes it: files, then scripts/precompress.ts. */
const dist = mkdtempSync(join(tmpdir(), 'hearth-dist-transfer-'));
const ENTRY = 'assets/index-Ab12Cd34.js';
const entrySource = `export const routes = [${Array.from({ length: 200 }, (_, i) => `{ path: '/screen-${i}', title: 'Screen number ${i}' }`).join(', ')}];\n`;
const shell = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Hearth</title><script type="module" src="/${ENTRY}"></script></head><body>${'<p>Hearth keeps your journal safe.</p>'.repeat(40)}<div id="root"></div></body></html>`;
const tinyScript = 'console.log("tiny")';
const noise = randomBytes(4096);

let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let sam: Client;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), shell);
  writeFileSync(join(dist, ENTRY), entrySource);
  writeFileSync(join(dist, 'assets', 'tiny-Zz99.js'), tinyScript);
  // Random bytes do not compress: no copy is kept that is not smaller.
  writeFileSync(join(dist, 'assets', 'noise-Yy88.js'), noise);
  writeFileSync(join(dist, 'assets', 'picture-Xx77.png'), Buffer.alloc(4096, 7));
  writeFileSync(join(dist, 'sw.js'), `self.addEventListener('install', () => {});\n${'// keep\n'.repeat(300)}`);
  await precompress(dist);

  server = await startTestServer({ env: { STATIC_DIR: dist } });
  ids = await demoIds(server);
  [jamie, sam] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'sam')]);
});
afterAll(async () => {
  await server?.close();
});

describe('scripts/precompress.ts', () => {
  it('writes .br and .gz beside compressible files of 1 KiB or more, only where smaller, and they decode to the file', () => {
    for (const file of [ENTRY, 'index.html', 'sw.js']) {
      const original = readFileSync(join(dist, file));
      const br = readFileSync(join(dist, `${file}.br`));
      const gz = readFileSync(join(dist, `${file}.gz`));
      expect(br.length, file).toBeLessThan(original.length);
      expect(gz.length, file).toBeLessThan(original.length);
      expect(brotliDecompressSync(br).equals(original), file).toBe(true);
      expect(gunzipSync(gz).equals(original), file).toBe(true);
    }
    // Under 1 KiB, not worth it; a PNG is compressed already; random bytes would only grow.
    for (const file of ['assets/tiny-Zz99.js', 'assets/picture-Xx77.png', 'assets/noise-Yy88.js']) {
      expect(existsSync(join(dist, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(dist, `${file}.gz`)), file).toBe(false);
    }
  });
});

describe('built files (preCompressed)', () => {
  it('a hashed asset comes from its .br, gzip from its .gz, identity otherwise; Vary on all three, immutable', async () => {
    const br = await raw(`/${ENTRY}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(readFileSync(join(dist, `${ENTRY}.br`)))).toBe(true);
    expect(br.headers['content-type']).toMatch(/^(?:application|text)\/javascript/);

    const gz = await raw(`/${ENTRY}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(readFileSync(join(dist, `${ENTRY}.gz`)))).toBe(true);

    const plain = await raw(`/${ENTRY}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(entrySource);

    for (const res of [br, gz, plain]) {
      expect(decoded(res).toString()).toBe(entrySource);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varyTokens(res)).toContain('accept-encoding');
    }
  });

  it('the security headers are the same on a compressed and an uncompressed file', async () => {
    const br = await raw(`/${ENTRY}`, { 'accept-encoding': 'br' });
    const plain = await raw(`/${ENTRY}`);
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options', 'permissions-policy']) {
      expect(br.headers[name], name).toBeDefined();
      expect(br.headers[name], name).toBe(plain.headers[name]);
    }
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('the shell, at / and as the fallback of an unknown path, is the compressed index.html, no-cache', async () => {
    const expected = readFileSync(join(dist, 'index.html.br'));
    for (const path of ['/', '/journal/some-entry']) {
      const res = await raw(path, { accept: 'text/html', 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.body.equals(expected), path).toBe(true);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expect(varyTokens(res), path).toContain('accept-encoding');
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
      expect(decoded(res).toString(), path).toBe(shell);
    }
  });

  it('a file without compressed copies is sent as it is, with Vary', async () => {
    const res = await raw('/assets/tiny-Zz99.js', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(tinyScript);
    expect(varyTokens(res)).toContain('accept-encoding');
  });
});

describe('API JSON', () => {
  const ENTRIES = '/api/v1/projects/residents/journal/entries';
  const cookie = (client: Client) => browserHeaders(client).cookie!;

  it('a large list comes back br when asked, gzip when only gzip is, identity otherwise, and decodes to the same JSON', async () => {
    const plain = await raw(ENTRIES, { cookie: cookie(jamie), accept: 'application/json' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const json: unknown = JSON.parse(plain.body.toString());
    expect(json).toMatchObject({ success: true });

    const br = await raw(ENTRIES, { cookie: cookie(jamie), accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    // Compressed in one call (plugins/compression.ts), so its length is known.
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(decoded(br).toString())).toEqual(json);

    const gz = await raw(ENTRIES, { cookie: cookie(jamie), accept: 'application/json', 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz).toString())).toEqual(json);

    for (const res of [br, gz]) {
      expect(varyTokens(res)).toContain('accept-encoding');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('a small answer is not compressed', async () => {
    const res = await raw('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toMatchObject({});
  });

  it('a request body sent compressed is not inflated', async () => {
    const client = server.client();
    await client.csrf();
    const res = await raw('/api/auth/login', { ...browserHeaders(client), 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'POST', 'not gzip');
    // The body reached the JSON parser as sent; had the plugin tried to inflate it, the answer would be its 400.
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body.toString())).toMatchObject({ message: 'The request body is not valid JSON' });
  });
});

describe('never compressed', () => {
  it('the change stream', async () => {
    const { status, headers, first } = await new Promise<{ status: number; headers: IncomingHttpHeaders; first: string }>((resolve, reject) => {
      const req = httpRequest(new URL('/api/v1/sync/stream', server.base), { headers: { cookie: browserHeaders(jamie).cookie!, accept: 'text/event-stream', 'accept-encoding': 'br, gzip' } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, first: chunk.toString('utf8') });
          req.destroy();
        });
        res.on('error', () => undefined);
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['content-encoding']).toBeUndefined();
    // The first event arrives as text at once, not held in a compressor's buffer.
    expect(first).toContain(': connected');
  });

  it('a document blob, whole or a range (text, which the library would otherwise compress)', async () => {
    const page = documentPageSchema.parse((await sam.get('/api/v1/documents')).body);
    const doc = page.data.find((d) => d.title === 'Wi-Fi and quiet hours');
    expect(doc?.file?.blob).toBeTruthy();
    const path = `/api${doc!.file!.blob}`;
    const whole = await raw(path, { cookie: browserHeaders(sam).cookie!, 'accept-encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^text\/plain/);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.toString()).toMatch(/^Wi-Fi and quiet hours at Cedar Lodge/);

    const part = await raw(path, { cookie: browserHeaders(sam).cookie!, 'accept-encoding': 'br, gzip', range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 0-99/${whole.body.length}`);
    expect(part.body.equals(whole.body.subarray(0, 100))).toBe(true);
  });

  it('a profile photo (SVG, which the library would otherwise compress)', async () => {
    // A photo larger than the threshold, so only the route's opt-out keeps it as it is.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${'<circle cx="32" cy="32" r="30" fill="#3b2a6b"/>'.repeat(40)}</svg>`;
    await server.db.updateTable('user_photos').set({ bytes: Buffer.from(svg) }).where('user_id', '=', ids.user['demo/carer.ali']!).execute();
    const res = await raw(`/api/v1/users/profile/photo/${ids.user['demo/carer.ali']}`, { cookie: browserHeaders(jamie).cookie!, 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body.length).toBeGreaterThanOrEqual(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe(svg);
  });

  it('a sign-in answer carrying a secret (authenticator set-up: secret and QR code)', async () => {
    const res = await raw(
      '/api/auth/mfa/enable',
      { ...browserHeaders(jamie), 'content-type': 'application/json', accept: 'application/json', 'accept-encoding': 'br, gzip' },
      'POST',
      JSON.stringify({ method: 'authenticator', current: 'hearth-demo-1' }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    // Large enough that only the sign-in rule keeps it uncompressed.
    expect(res.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const body = JSON.parse(res.body.toString()) as { data: { secret?: string } };
    expect(body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
  });
});
