import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A real S3-compatible server for tests: s3rver, in this process, on 127.0.0.1 at a free port,
 * keeping its objects in a temporary directory, with one empty bucket. Path-style addressing and
 * s3rver's built-in account (S3RVER/S3RVER; it checks the key id, not SigV4 signatures).
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point a server at it (config.ts). */
  env: Record<string, string>;
  /** An SDK client of its own, to look into the bucket beside the store under test. */
  client: S3Client;
  /** Every key in the bucket (under `prefix`), sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** One object's bytes. */
  bytes(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export const S3_ACCESS_KEY = 'S3RVER';

export async function startTestS3(bucket = 'hearth-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'hearth-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_ACCESS_KEY } });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: S3_ACCESS_KEY, S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY },
    client,
    async keys(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async bytes(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async close() {
      // Pooled keep-alive connections would hold s3rver's close() open until they time out.
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
