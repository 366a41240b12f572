import { randomBytes } from 'node:crypto';
import { PassThrough, pipeline, Transform, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { STORAGE_KEY, TENANT_ID, type BlobStore } from './blob-store';
import { openChunks, openingStream, plainSize, sealChunks, sealedSpan, type Sealing } from './sealed-chunks';

/**
 * Uploaded files in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph...), when S3_BUCKET is set
 * (config.ts; app.ts blobStoreFor, on either database): every process on every machine reaches them
 * without the database holding the bytes. The object key is `<prefix><tenant id>/<storage key>`,
 * the storage key 32 random hex characters made here, never a name the client chose. A PUT is
 * atomic (an object is there whole or not at all), so there is no temporary object to sweep.
 * Objects are sealed in chunks (./sealed-chunks.ts) under a key of Hearth's own: the bucket holds
 * nothing readable, whatever its settings, and one file's chunks open only as that file.
 */
/** Plaintext bytes per sealed chunk: 28 bytes of nonce and tag each, a range opens at most two more chunks than it covers. */
export const FILE_CHUNK_BYTES = 64 * 1024;

export interface S3StoreOptions {
  bucket: string;
  /** Another service than AWS (http(s)://host[:port]); null for AWS itself. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's default chain (AWS_* variables, shared files, an instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`: what most self-hosted stores expect. */
  forcePathStyle: boolean;
  /** Put before every key, e.g. `hearth/` to share a bucket; empty for none. */
  prefix: string;
}

/**
 * What a Content-Range (`bytes 10-99/1000`) says: where the answer's bytes start in the object, and
 * the object's whole size (null for `*`); null when there is no such header.
 */
export function contentRangeOf(header: string | undefined): { first: number; total: number | null } | null {
  const match = header ? /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header.trim()) : null;
  return match ? { first: Number(match[1]), total: match[2] === '*' ? null : Number(match[2]) } : null;
}

/**
 * Passes `take` bytes after the first `skip`: the range asked for, whatever the store sent. S3
 * sends exactly that range; a compatible store that ignores Range, or reads `bytes=0-0` as "to the
 * end" (s3rver), sends more, and a reader (a PDF viewer asking for a piece) must never get other bytes.
 */
export function byteWindow(skip: number, take: number): Transform {
  let position = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, skip - position);
      const to = Math.min(chunk.length, skip + take - position);
      position += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      done();
    },
  });
}

/** What a file's chunks are bound to: its tenant and storage key (not the bucket's prefix, which may change). */
const contextOf = (tenantId: string, key: string): string => `${tenantId}/${key}`;

/** The HTTP status of an SDK error, if it came from the store. */
const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

export class S3FileStore implements BlobStore {
  private readonly client: S3Client;

  constructor(
    private readonly options: S3StoreOptions,
    private readonly sealing: Sealing,
  ) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle,
      // A store that cannot be reached fails the upload in seconds instead of holding it open.
      // One that stops sending in the middle of a file fails it too, rather than holding the reader.
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 30_000 },
    });
  }

  /** Checked before any request, as the other stores check before touching a path or a row. */
  private key(tenantId: string, key: string): string {
    if (!TENANT_ID.test(tenantId)) throw new Error('file store: bad tenant id');
    if (!STORAGE_KEY.test(key)) throw new Error('file store: bad key');
    return `${this.options.prefix}${tenantId}/${key}`;
  }

  async write(tenantId: string, bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const sealed = sealChunks(this.sealing, contextOf(tenantId, key), bytes);
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.key(tenantId, key), Body: sealed, ContentLength: sealed.length }));
    return key;
  }

  async read(tenantId: string, key: string): Promise<Buffer> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(tenantId, key) }));
    if (!object.Body) throw new Error('file store: no body');
    const bytes = await object.Body.transformToByteArray();
    return openChunks(this.sealing, contextOf(tenantId, key), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async size(tenantId: string, key: string): Promise<number | null> {
    const Key = this.key(tenantId, key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key }));
      const plain = head.ContentLength === undefined ? null : plainSize(head.ContentLength, this.sealing.chunk);
      if (plain === null) throw new Error('file store: the stored size is not one of a sealed file');
      return plain;
    } catch (error) {
      // Only "not there" is an answer; a store that is down or refuses us must not look like a missing file.
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /**
   * The contract returns a stream at once, the request is asynchronous: a PassThrough is handed
   * out now and the object's body piped into it when it comes. A failed request (or a body cut off)
   * destroys it with the error; a reader that goes away first aborts the request.
   */
  stream(tenantId: string, key: string, start: number, end: number): Readable {
    const Key = this.key(tenantId, key);
    const out = new PassThrough();
    // Nothing to read: no request (S3 would refuse the range).
    if (end < start) return out.end();
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    // The chunks that hold the range (a start past the file's end asks past the object's: 416).
    const span = sealedSpan(start, end, this.sealing.chunk);
    this.client
      .send(new GetObjectCommand({ Bucket: this.options.bucket, Key, Range: `bytes=${span.from}-${span.to}` }), { abortSignal: abort.signal })
      .then(
        (object) => {
          if (!object.Body) return void out.destroy(new Error('file store: no body'));
          // A store that ignored the Range header answers 200 with the whole object.
          const { first, total } =
            object.$metadata.httpStatusCode === 200 ? { first: 0, total: object.ContentLength ?? null } : (contentRangeOf(object.ContentRange) ?? { first: 0, total: null });
          if (total === null || first > span.from) return void out.destroy(new Error('file store: the store answered another range'));
          const chunk = this.sealing.chunk;
          // pipeline destroys `out` with any step's error, and the body when `out` is destroyed.
          pipeline(
            object.Body as Readable,
            byteWindow(span.from - first, span.to - span.from + 1),
            openingStream(this.sealing, contextOf(tenantId, key), span.first, Math.floor(end / chunk), total),
            byteWindow(start - span.first * chunk, end - start + 1),
            out,
            () => undefined,
          );
        },
        (error: unknown) => {
          // A start past the end reads nothing, as a file read or the database store does.
          if (statusOf(error) === 416) out.end();
          else out.destroy(error as Error);
        },
      );
    return out;
  }

  async remove(tenantId: string, key: string): Promise<void> {
    if (!TENANT_ID.test(tenantId) || !STORAGE_KEY.test(key)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(tenantId, key) })).catch(() => undefined);
  }

  /** Closes the client's pooled connections (app close; main.ts once the seed is done). */
  async close(): Promise<void> {
    this.client.destroy();
  }
}
