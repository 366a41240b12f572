import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { byteWindow, contentRangeOf, FILE_CHUNK_BYTES, S3FileStore, type S3StoreOptions } from '../../server/lib/s3-file-store';
import { sealedSize, type Sealing } from '../../server/lib/sealed-chunks';
import { S3_ACCESS_KEY, startTestS3, type TestS3 } from './support/s3';

/**
 * Issue 13: uploaded files in an S3-compatible bucket (lib/s3-file-store.ts), against a real S3
 * server (s3rver, support/s3.ts): the BlobStore contract the disk and database stores keep, the
 * object's key under its tenant (and the prefix), ids refused before any request is made, and
 * objects sealed in chunks: nothing readable in the bucket, and a changed, moved or shortened
 * object refused.
 */
const TENANT = '0190a000-0000-7000-8000-000000000001';
const OTHER = '0190a000-0000-7000-8000-000000000002';
const PREFIX = 'hearth/';

let s3: TestS3;
/** 8-byte chunks: the small files here cross chunk boundaries. */
let store: S3FileStore;
/** The chunks the app uses, for the large files. */
let wide: S3FileStore;
let bare: S3FileStore;
/** Nothing listens there: a request it made would fail with a connection error, not a check's message. */
let unreachable: S3FileStore;

const options = (extra: Partial<S3StoreOptions> = {}): S3StoreOptions => ({
  bucket: s3.bucket,
  endpoint: s3.endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_ACCESS_KEY },
  forcePathStyle: true,
  prefix: PREFIX,
  ...extra,
});

const small: Sealing = { key: randomBytes(32), chunk: 8 };

beforeAll(async () => {
  s3 = await startTestS3();
  store = new S3FileStore(options(), small);
  wide = new S3FileStore(options(), { key: small.key, chunk: FILE_CHUNK_BYTES });
  bare = new S3FileStore(options({ prefix: '' }), small);
  unreachable = new S3FileStore(options({ endpoint: 'http://127.0.0.1:9' }), small);
});
afterAll(async () => {
  await Promise.all([store, wide, bare, unreachable].map((s) => s?.close()));
  await s3?.close();
});

const streamed = async (key: string, start: number, end: number, tenant = TENANT, from: S3FileStore = store) => {
  const chunks: Buffer[] = [];
  for await (const chunk of from.stream(tenant, key, start, end)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Puts other bytes under a file's object, as someone with the bucket's keys could. */
const overwrite = (key: string, bytes: Buffer) => s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}${TENANT}/${key}`, Body: bytes }));

describe('the S3 file store', () => {
  it('gives back every byte of files of any size, under <prefix><tenant>/<key> in the bucket, sealed', async () => {
    for (const [size, target, chunk] of [[0, store, 8], [1, store, 8], [100, store, 8], [700 * 1024, wide, FILE_CHUNK_BYTES]] as const) {
      const bytes = randomBytes(size);
      const key = await target.write(TENANT, bytes);
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect((await target.read(TENANT, key)).equals(bytes), `size ${size}`).toBe(true);
      expect(await target.size(TENANT, key)).toBe(size);
      expect(await s3.keys(`${PREFIX}${TENANT}/${key}`)).toEqual([`${PREFIX}${TENANT}/${key}`]);
      const stored = await s3.bytes(`${PREFIX}${TENANT}/${key}`);
      expect(stored.length).toBe(sealedSize(size, chunk));
    }
  });

  it('keeps nothing readable in the bucket: what a child wrote is not in the object', async () => {
    const canary = Buffer.from('CANARY what a child wrote in the journal 91c2');
    const key = await wide.write(TENANT, canary);
    const stored = await s3.bytes(`${PREFIX}${TENANT}/${key}`);
    expect(stored.includes(Buffer.from('CANARY'))).toBe(false);
    expect(stored.includes(Buffer.from('child'))).toBe(false);
    expect((await wide.read(TENANT, key)).equals(canary)).toBe(true);
  });

  it('refuses an object changed, moved from another file, or cut short at a chunk', async () => {
    const bytes = randomBytes(40);
    const key = await store.write(TENANT, bytes);
    const stored = await s3.bytes(`${PREFIX}${TENANT}/${key}`);

    const changed = Buffer.from(stored);
    changed[50] = (changed[50] ?? 0) ^ 1;
    await overwrite(key, changed);
    await expect(store.read(TENANT, key)).rejects.toThrow();
    await expect(streamed(key, 0, 39)).rejects.toThrow();

    // Another file's object under this key: its chunks name the other file.
    const other = await store.write(TENANT, randomBytes(40));
    await overwrite(key, await s3.bytes(`${PREFIX}${TENANT}/${other}`));
    await expect(store.read(TENANT, key)).rejects.toThrow();
    await expect(streamed(key, 0, 3)).rejects.toThrow();

    // The first four of five chunks: the fourth was not sealed as the last.
    await overwrite(key, stored.subarray(0, 4 * (8 + 28)));
    await expect(store.read(TENANT, key)).rejects.toThrow();
    await expect(streamed(key, 24, 31)).rejects.toThrow();

    await overwrite(key, stored);
    expect((await store.read(TENANT, key)).equals(bytes)).toBe(true);
  });

  it('streams exactly the bytes from start to end, both included', async () => {
    const bytes = randomBytes(23);
    const key = await store.write(TENANT, bytes);
    for (let start = 0; start < bytes.length; start++) {
      // `bytes=0-0` included: s3rver 3.7.1 reads an end of 0 as no end and sends the whole object; the store cuts it to one byte, as S3 sends.
      for (let end = start; end < bytes.length; end += 3) {
        expect((await streamed(key, start, end)).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
      }
    }
    // Past the end is clipped, and a start past it reads nothing, as the other stores do.
    expect((await streamed(key, 20, 1000)).equals(bytes.subarray(20))).toBe(true);
    expect((await streamed(key, 23, 30)).length).toBe(0);
    // A range across a large file arrives whole, in however many pieces.
    const large = randomBytes(3 * 1024 * 1024);
    const largeKey = await wide.write(TENANT, large);
    expect((await streamed(largeKey, 12_345, 2_500_000, TENANT, wide)).equals(large.subarray(12_345, 2_500_001))).toBe(true);
    expect((await streamed(largeKey, 3 * 1024 * 1024 - 5, 3 * 1024 * 1024 + 5, TENANT, wide)).equals(large.subarray(-5))).toBe(true);
  });

  it('a stream given up before its bytes came leaves the store working', async () => {
    const bytes = randomBytes(4 * 1024);
    const key = await store.write(TENANT, bytes);
    for (let i = 0; i < 5; i++) store.stream(TENANT, key, 0, bytes.length - 1).destroy();
    expect((await streamed(key, 0, bytes.length - 1)).equals(bytes)).toBe(true);
  });

  it('keeps tenants apart: another tenant neither sees nor reads the key', async () => {
    const key = await store.write(TENANT, Buffer.from('mine'));
    expect(await store.size(OTHER, key)).toBeNull();
    await expect(store.read(OTHER, key)).rejects.toThrow();
    await expect(streamed(key, 0, 3, OTHER)).rejects.toThrow();
    expect(await s3.keys(`${PREFIX}${OTHER}/`)).toEqual([]);
  });

  it('applies the prefix: a store without it does not find the file, and writes beside it', async () => {
    const key = await store.write(TENANT, Buffer.from('prefixed'));
    expect(await bare.size(TENANT, key)).toBeNull();
    const unprefixed = await bare.write(TENANT, Buffer.from('bare'));
    expect(await s3.keys(`${TENANT}/`)).toContain(`${TENANT}/${unprefixed}`);
    expect(await store.size(TENANT, unprefixed)).toBeNull();
  });

  it('removes a file: its size is null, a read rejects, a second removal is harmless', async () => {
    const key = await store.write(TENANT, randomBytes(30));
    await store.remove(TENANT, key);
    await store.remove(TENANT, key);
    expect(await store.size(TENANT, key)).toBeNull();
    await expect(store.read(TENANT, key)).rejects.toThrow();
    await expect(streamed(key, 0, 3)).rejects.toThrow();
    expect(await s3.keys(`${PREFIX}${TENANT}/${key}`)).toEqual([]);
  });

  it('refuses a bad tenant id or key before any request', async () => {
    const key = randomBytes(16).toString('hex');
    for (const target of [store, unreachable]) {
      await expect(target.write('../other-tenant', Buffer.from('x'))).rejects.toThrow(/bad tenant id/);
      await expect(target.read(TENANT, '../etc/passwd')).rejects.toThrow(/bad key/);
      await expect(target.read('not-a-tenant', key)).rejects.toThrow(/bad tenant id/);
      await expect(target.size(TENANT, key.toUpperCase())).rejects.toThrow(/bad key/);
      expect(() => target.stream(TENANT, `${key}/x`, 0, 1)).toThrow(/bad key/);
      expect(() => target.stream(`${TENANT}/..`, key, 0, 1)).toThrow(/bad tenant id/);
      await expect(target.remove(TENANT, '..')).resolves.toBeUndefined();
    }
  });

  it('a store it cannot reach: reads and sizes reject (not "no such file"), a removal is best effort', async () => {
    const key = randomBytes(16).toString('hex');
    await expect(unreachable.size(TENANT, key)).rejects.toThrow();
    await expect(unreachable.read(TENANT, key)).rejects.toThrow();
    await expect(unreachable.remove(TENANT, key)).resolves.toBeUndefined();
  });
});

describe('the bytes of a range, whatever the store sent', () => {
  const through = async (pieces: Buffer[], skip: number, take: number) => {
    const out: Buffer[] = [];
    for await (const chunk of Readable.from(pieces).pipe(byteWindow(skip, take))) out.push(chunk as Buffer);
    return Buffer.concat(out);
  };

  it('passes exactly the window across pieces of any size', async () => {
    const bytes = randomBytes(50);
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 8), bytes.subarray(8, 31), bytes.subarray(31)];
    for (const [skip, take] of [[0, 50], [0, 1], [7, 1], [6, 3], [30, 20], [49, 1], [10, 100], [50, 5]] as const) {
      expect((await through(pieces, skip, take)).equals(bytes.subarray(skip, skip + take)), `${skip}+${take}`).toBe(true);
    }
  });

  it('reads where an answer starts and the whole size from its Content-Range', () => {
    expect(contentRangeOf('bytes 10-99/1000')).toEqual({ first: 10, total: 1000 });
    expect(contentRangeOf('bytes 0-0/23')).toEqual({ first: 0, total: 23 });
    expect(contentRangeOf('bytes 5-9/*')).toEqual({ first: 5, total: null });
    expect(contentRangeOf(undefined)).toBeNull();
    expect(contentRangeOf('nonsense')).toBeNull();
  });
});
