import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentResponseSchema } from '../../src/contract/documents';
import { journalEntryResponseSchema } from '../../src/contract/entries';
import type { Client } from './support/client';
import { startTestS3, type TestS3 } from './support/s3';
import { demoIds, signedIn } from './support/session';
import { startTestServer, type TestServer } from './support/server';
import { FakeClassifier, getBytes, PDF, postForm } from './support/uploads';

/**
 * Issue 13: with S3_BUCKET (and an endpoint, keys and a prefix) the server keeps uploaded files in
 * the bucket: through the API, a young person's attachment and a staff member's document land
 * there under `<prefix><tenant>/<key>` and come back byte for byte, whole and in ranges; a file
 * taken off its entry leaves the bucket. The server reads its S3 settings the way main.ts does
 * (config.ts), against s3rver (support/s3.ts).
 */
const PREFIX = 'hearth/';
const OBJECT = /^hearth\/([0-9a-f-]{36})\/[0-9a-f]{32}$/;
const ENTRIES = '/api/v1/projects/residents/journal/entries';
const DOCS = '/api/v1/documents';

let s3: TestS3;
let server: TestServer;
let jamie: Client;
let ali: Client;

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ env: { ...s3.env, S3_PREFIX: PREFIX }, imageClassifier: new FakeClassifier() });
  [jamie, ali] = await Promise.all([signedIn(server, 'jamie'), signedIn(server, 'carer.ali')]);
});
afterAll(async () => {
  // The app's store first: its open connections would hold s3rver's close.
  await server?.close();
  await s3?.close();
});

/** The one object a step added to the bucket. */
async function added(before: string[]): Promise<string> {
  const now = await s3.keys();
  const fresh = now.filter((k) => !before.includes(k));
  expect(fresh).toHaveLength(1);
  expect(fresh[0]).toMatch(OBJECT);
  return fresh[0]!;
}

describe('uploaded files in an S3-compatible bucket', () => {
  it('the demo files were stored in the bucket under the prefix, none on disk', async () => {
    const keys = await s3.keys();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => OBJECT.test(k))).toBe(true);
    expect(existsSync(join(server.config.dataDir, 'files'))).toBe(false);
  });

  it("a young person's attachment lands in the bucket, is served back byte for byte, and leaves when removed", async () => {
    const bytes = Buffer.concat([PDF, randomBytes(300 * 1024)]);
    const before = await s3.keys();
    const created = await postForm(server.base, jamie, ENTRIES, [['description', 'With a file in the bucket'], ['files[0]', { name: 'notes.pdf', data: bytes }]]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const entry = journalEntryResponseSchema.parse(created.body).data;
    const key = await added(before);
    // Sealed in the bucket: the upload's bytes are not there as they are.
    expect((await s3.bytes(key)).includes(bytes.subarray(0, 64))).toBe(false);

    const file = entry.files[0]!;
    const served = await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${file.id}&module=journal`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);

    const updated = await postForm(server.base, jamie, `${ENTRIES}/${entry.id}?_method=PUT`, [['remove_files[]', file.id]]);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(await s3.keys()).toEqual(before);
    expect((await getBytes(server.base, jamie, `/api/v1/files/view?file_id=${file.id}&module=journal`)).status).toBe(404);
  });

  it("a staff member's document lands in the bucket and is read whole and in ranges", async () => {
    const bytes = Buffer.concat([PDF, randomBytes(600 * 1024)]);
    const jamieId = (await demoIds(server)).resident['demo/jamie']!;
    const before = await s3.keys();
    const shared = await postForm(server.base, ali, DOCS, [['kind', 'file'], ['title', 'In the bucket'], ['resident_id', jamieId], ['file', { name: 'plan.pdf', data: bytes }]]);
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    const document = documentResponseSchema.parse(shared.body).data;
    const key = await added(before);
    // Sealed in the bucket: the upload's bytes are not there as they are.
    expect((await s3.bytes(key)).includes(bytes.subarray(0, 64))).toBe(false);

    const blob = `/api${document.file!.blob}`;
    const whole = await getBytes(server.base, jamie, blob);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(bytes)).toBe(true);
    for (const [start, end] of [[0, 99], [100_000, 400_000], [bytes.length - 10, bytes.length - 1]] as const) {
      const res = await fetch(`${server.base}${blob}`, { headers: { cookie: [...jamie.jar].map(([k, v]) => `${k}=${v}`).join('; '), range: `bytes=${start}-${end}` } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });
});
