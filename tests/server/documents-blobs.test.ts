import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMessages, documentPageSchema, type Document } from '../../src/contract/documents';
import type { Client } from './support/client';
import { browserHeaders, demoIds, signInDemoClients } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { PDF, pngImage, postForm, type FormValue } from './support/uploads';

/**
 * Document blobs (SPEC §7 "any document path as a blob"): range requests, conditional requests,
 * the safe headers of journal files, content checks at upload, and the 404 matrix (another young
 * person, another home, another site) on list rows, documents, blobs and submissions.
 */
let server: TestServer;
let ids: Awaited<ReturnType<typeof demoIds>>;
let jamie: Client;
let riley: Client;
let sam: Client;
let ali: Client;
let chris: Client;
let alex: Client;
let jo: Client;
let docs: Map<string, Document>;

beforeAll(async () => {
  server = await startTestServer();
  ids = await demoIds(server);
  ({ jamie, sam, riley, ali, chris, alex, jo } = await signInDemoClients(server, ['alex', 'jo']));
  const page = documentPageSchema.parse((await jamie.get('/api/v1/documents')).body);
  docs = new Map(page.data.map((d) => [d.title, d]));
});
afterAll(async () => {
  await server?.close();
});

/** GET with the client's cookies and any headers; the bytes and headers as they came. */
async function fetchBlob(client: Client, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${server.base}/api${path}`, { method, headers: { cookie: browserHeaders(client).cookie!, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const video = () => docs.get('Waves at Whitby')!;

describe('range requests', () => {
  it('answers the whole file with Accept-Ranges, a strong ETag, Last-Modified and the safe headers', async () => {
    const whole = await fetchBlob(jamie, video().file!.blob);
    expect(whole.status).toBe(200);
    expect(whole.bytes.length).toBe(video().size);
    expect(whole.bytes.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    const h = whole.headers;
    expect(h.get('content-type')).toBe('video/webm');
    expect(h.get('content-length')).toBe(String(video().size));
    expect(h.get('accept-ranges')).toBe('bytes');
    expect(h.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Date.parse(h.get('last-modified')!)).not.toBeNaN();
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('cache-control')).toBe('private, no-store');
    expect(h.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(h.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(h.get('content-disposition')).toBe(`inline; filename="waves-at-whitby.webm"; filename*=UTF-8''waves-at-whitby.webm`);
    const pdf = await fetchBlob(jamie, docs.get('House rules')!.file!.blob);
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; /);
  });

  it('first bytes, an open-ended range, a suffix, a range past the end clipped', async () => {
    const whole = (await fetchBlob(jamie, video().file!.blob)).bytes;
    const size = whole.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      ['bytes=-999999', 0, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await fetchBlob(jamie, video().file!.blob, { range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(res.bytes.equals(whole.subarray(start, end + 1)), range).toBe(true);
      expect(res.headers.get('content-type')).toBe('video/webm');
    }
  });

  it('416 for a range that starts past the end; the whole file for several ranges or a range it cannot read', async () => {
    const size = video().size;
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const res = await fetchBlob(jamie, video().file!.blob, { range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range'), range).toBe(`bytes */${size}`);
    }
    for (const range of ['bytes=0-1,5-6', 'items=0-5', 'bytes=5-2', 'bytes=abc', 'bytes=-', 'bytes=99999999999999999-']) {
      const res = await fetchBlob(jamie, video().file!.blob, { range });
      expect(res.status, range).toBe(200);
      expect(res.bytes.length, range).toBe(size);
    }
  });

  it('If-Range with the ETag or the date honours the range; anything else sends the whole; If-None-Match is a 304', async () => {
    const first = await fetchBlob(jamie, video().file!.blob);
    const etag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect((await fetchBlob(jamie, video().file!.blob, { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    expect((await fetchBlob(jamie, video().file!.blob, { range: 'bytes=0-9', 'if-range': modified })).status).toBe(206);
    expect((await fetchBlob(jamie, video().file!.blob, { range: 'bytes=0-9', 'if-range': '"other"' })).status).toBe(200);
    expect((await fetchBlob(jamie, video().file!.blob, { range: 'bytes=0-9', 'if-range': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(200);
    const same = await fetchBlob(jamie, video().file!.blob, { 'if-none-match': etag });
    expect(same.status).toBe(304);
    expect(same.bytes.length).toBe(0);
    expect((await fetchBlob(jamie, video().file!.blob, { 'if-none-match': '"other"' })).status).toBe(200);
    const head = await fetchBlob(jamie, video().file!.blob, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('accept-ranges')).toBe('bytes');
  });

  it('serves gallery items and page pictures by item id, with ranges too', async () => {
    const item = docs.get('Trip to the seaside')!.gallery!.items.find((i) => i.kind === 'video')!;
    const res = await fetchBlob(jamie, item.blob, { range: 'bytes=0-3' });
    expect(res.status).toBe(206);
    expect(res.bytes.toString('hex')).toBe('1a45dfa3');
    // The main file is not an item, and an item of one document is not an item of another.
    const rules = docs.get('House rules')!;
    expect((await fetchBlob(jamie, `/v1/documents/${rules.id}/items/${rules.file!.id}/blob`)).status).toBe(404);
    expect((await fetchBlob(jamie, `/v1/documents/${rules.id}/items/${item.id}/blob`)).status).toBe(404);
    expect((await fetchBlob(jamie, `/v1/documents/${docs.get('Trip to the seaside')!.id}/blob`)).status).toBe(404);
    expect((await fetchBlob(jamie, `/v1/documents/${rules.id}/items/not-a-uuid/blob`)).status).toBe(422);
    expect((await fetchBlob(jamie, '/v1/documents/nope/blob')).status).toBe(422);
  });
});

describe('content checks at upload', () => {
  const share = (name: string, data: Buffer) =>
    postForm<{ data: Document; errors?: Record<string, string[]> }>(server.base, ali, '/api/v1/documents', [
      ['kind', 'file'], ['title', name], ['resident_id', ids.resident['demo/jamie']!], ['file', { name, data }],
    ] as [string, FormValue][]);

  it('takes audio, video, PDF, pictures and plain text by content and name; stores the type it found', async () => {
    const ok: [string, Buffer, string][] = [
      ['song.mp3', Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), 'audio/mpeg'],
      ['tone.wav', Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), 'audio/wav'],
      ['voice.ogg', Buffer.from('OggS\x00\x02', 'latin1'), 'audio/ogg'],
      ['clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom\x00\x00\x02\x00', 'latin1')]), 'video/mp4'],
      ['memo.m4a', Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A \x00\x00\x02\x00', 'latin1')]), 'audio/mp4'],
      ['notes.txt', Buffer.from('Pack a towel and sun cream.\n'), 'text/plain'],
      ['letter.pdf', PDF, 'application/pdf'],
      ['pic.png', pngImage(4, 4, [1, 2, 3]), 'image/png'],
    ];
    for (const [name, data, mime] of ok) {
      const res = await share(name, data);
      expect(res.status, `${name} ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data.mime, name).toBe(mime);
      const served = await fetchBlob(jamie, res.body.data.file!.blob);
      expect(served.headers.get('content-type')!.startsWith(mime), name).toBe(true);
    }
  });

  it('refuses a PDF named .png, HTML or SVG posing as text, a script, an empty file, and anything else', async () => {
    const refused: [string, Buffer][] = [
      ['photo.png', PDF],
      ['notes.txt', Buffer.from('<!doctype html><script>alert(1)</script>')],
      ['notes.txt', Buffer.from('Hello\n<img src=x onerror=alert(1)>')],
      ['picture.txt', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
      ['page.html', Buffer.from('<html></html>')],
      ['run.sh', Buffer.from('#!/bin/sh\necho hi\n')],
      ['empty.txt', Buffer.alloc(0)],
      ['binary.txt', Buffer.from([0, 1, 2, 3])],
      ['movie.mov', Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  \x00\x00\x02\x00', 'latin1')])],
    ];
    for (const [name, data] of refused) {
      const res = await share(name, data);
      expect(res.status, name).toBe(422);
      expect(res.body.errors, name).toEqual({ file: [documentMessages.fileTypeNotAllowed] });
    }
  });

  it('refuses a file over the size limit with 413', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20 * 1024 * 1024 + 10, 0x20)]);
    const res = await share('big.pdf', big);
    expect(res.status).toBe(413);
  });
});

describe('who gets 404: another young person, another home, another site', () => {
  it('every list row, document, blob and submission of someone else is a 404', async () => {
    const own = ['Trip to the seaside', 'Waves at Whitby', 'My views for my review meeting'].map((t) => docs.get(t)!);
    const home = ['House rules', 'Welcome to Willow House'].map((t) => docs.get(t)!);
    const blobs = (d: Document) => [
      ...(d.file ? [d.file.blob] : []),
      ...(d.book?.pages.flatMap((p) => p.images.map((i) => i.blob)) ?? []),
      ...(d.gallery?.items.map((i) => i.blob) ?? []),
    ];
    const outsiders: [string, Client, Document[]][] = [
      ['riley (same home)', riley, own],
      ['sam (other home)', sam, [...own, ...home]],
      ['chris (staff, other home)', chris, [...own, ...home]],
      ['alex (other site)', alex, [...own, ...home]],
      ['jo (staff, other site)', jo, [...own, ...home]],
    ];
    for (const [who, client, hidden] of outsiders) {
      const listed = documentPageSchema.parse((await client.get('/api/v1/documents?with_trashed=1&per_page=500')).body).data.map((d) => d.id);
      for (const doc of hidden) {
        expect(listed, `${who} lists ${doc.title}`).not.toContain(doc.id);
        expect((await client.get(`/api/v1/documents/${doc.id}`)).status, `${who} ${doc.title}`).toBe(404);
        for (const blob of blobs(doc)) expect((await fetchBlob(client, blob)).status, `${who} ${blob}`).toBe(404);
        expect((await client.get(`/api/v1/documents/${doc.id}/submissions`)).status, `${who} submissions of ${doc.title}`).toBe(404);
        expect((await client.post(`/api/v1/documents/${doc.id}/submissions`, { answers: {} })).status, `${who} submits to ${doc.title}`).toBe(404);
      }
    }
    // A random id is the same 404 as someone else's.
    expect((await jamie.get(`/api/v1/documents/${randomUUID()}`)).body).toMatchObject({ success: false, message: documentMessages.notFound });
    expect((await fetchBlob(jamie, `/v1/documents/${randomUUID()}/blob`)).status).toBe(404);
  });
});
