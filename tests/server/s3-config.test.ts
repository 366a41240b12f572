import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { blobStoreFor } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import type { Database } from '../../server/db/schema';
import { DatabaseFileStore } from '../../server/lib/database-file-store';
import { FileStore } from '../../server/lib/file-store';
import { S3FileStore } from '../../server/lib/s3-file-store';

/** Issue 13: the S3_* variables (config.ts) and the store they choose (app.ts blobStoreFor). */
// One DATA_DIR for the file (loadConfig keeps its generated VAPID keys there), removed at the end.
const dataDirs = [mkdtempSync(join(tmpdir(), 'hearth-s3-config-'))];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
const env = (vars: Record<string, string>) => ({ NODE_ENV: 'test', APP_KEY: randomBytes(32).toString('base64'), DATA_DIR: dataDirs[0]!, ...vars });
const SECRET = 'wJalrXUtnFEMI-not-a-real-secret';

describe('S3 configuration', () => {
  it('is off without S3_BUCKET (empty counts as unset)', () => {
    expect(loadConfig(env({})).s3).toBeNull();
    expect(loadConfig(env({ S3_BUCKET: '', S3_ENDPOINT: '' })).s3).toBeNull();
  });

  it('S3_BUCKET alone: AWS with the default credential chain, virtual-hosted names, no prefix', () => {
    expect(loadConfig(env({ S3_BUCKET: 'hearth-files' })).s3).toEqual({
      bucket: 'hearth-files',
      endpoint: null,
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('an endpoint turns path-style on unless told otherwise; keys, region and prefix as given', () => {
    const vars = { S3_BUCKET: 'hearth', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_REGION: 'garage', S3_ACCESS_KEY_ID: 'GK123', S3_SECRET_ACCESS_KEY: SECRET, S3_PREFIX: 'prod/hearth/' };
    expect(loadConfig(env(vars)).s3).toEqual({
      bucket: 'hearth',
      endpoint: 'http://127.0.0.1:9000',
      region: 'garage',
      credentials: { accessKeyId: 'GK123', secretAccessKey: SECRET },
      forcePathStyle: true,
      prefix: 'prod/hearth/',
    });
    expect(loadConfig(env({ ...vars, S3_FORCE_PATH_STYLE: 'false' })).s3?.forcePathStyle).toBe(false);
    expect(loadConfig(env({ S3_BUCKET: 'hearth', S3_FORCE_PATH_STYLE: 'true' })).s3?.forcePathStyle).toBe(true);
    expect(loadConfig(env({ S3_BUCKET: 'hearth', S3_ENDPOINT: 'https://s3.example.org' })).s3?.endpoint).toBe('https://s3.example.org');
  });

  it('refuses half a setting and malformed values at start, naming the variable and never the secret', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ S3_BUCKET: 'hearth', S3_ACCESS_KEY_ID: 'GK123' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither/],
      [{ S3_BUCKET: 'hearth', S3_SECRET_ACCESS_KEY: SECRET }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither/],
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_ENDPOINT: set S3_BUCKET/],
      [{ S3_ACCESS_KEY_ID: 'GK123', S3_SECRET_ACCESS_KEY: SECRET, S3_PREFIX: 'hearth/' }, /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PREFIX: set S3_BUCKET/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT: must be an http:\/\/ or https:\/\/ address/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: 'not a url' }, /S3_ENDPOINT: must be an http/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: 'ftp://files.example.org' }, /S3_ENDPOINT: must be an http/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: `http://GK123:${SECRET}@127.0.0.1:9000` }, /S3_ENDPOINT: must not hold credentials/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: 'http://127.0.0.1:9000/hearth' }, /S3_ENDPOINT: must be http\(s\):\/\/host\[:port\] without a path/],
      [{ S3_BUCKET: 'hearth', S3_ENDPOINT: 'http://127.0.0.1:9000?x=1' }, /S3_ENDPOINT: must be http\(s\):\/\/host/],
      [{ S3_BUCKET: 'hearth', S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE: must be true or false/],
      [{ S3_BUCKET: 'hearth', S3_REGION: 'eu west' }, /S3_REGION: must be a region name/],
      [{ S3_BUCKET: 'a' }, /S3_BUCKET: must be a bucket name/],
      [{ S3_BUCKET: 'my bucket' }, /S3_BUCKET: must be a bucket name/],
      [{ S3_BUCKET: 'hearth/files' }, /S3_BUCKET: must be a bucket name/],
    ];
    for (const prefix of ['hearth', '/hearth/', 'a//b/', '../', './x/', 'hearth/.hidden/', 'spa ce/']) {
      bad.push([{ S3_BUCKET: 'hearth', S3_PREFIX: prefix }, /S3_PREFIX: must be folder names each ending in \//]);
    }
    for (const [vars, message] of bad) {
      let error: unknown = null;
      try {
        loadConfig(env(vars));
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(vars)).toBeInstanceOf(ConfigError);
      expect((error as Error).message, JSON.stringify(vars)).toMatch(message);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });

  it('a bad S3 setting stops the start before anything is written to DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-s3-config-'));
    dataDirs.push(dataDir);
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, S3_BUCKET: 'hearth', S3_ACCESS_KEY_ID: 'GK123' })).toThrow(ConfigError);
    expect(existsSync(join(dataDir, 'app.key'))).toBe(false);
  });
});

describe('the store the configuration chooses (app.ts blobStoreFor)', () => {
  // No query runs: the stores only keep the handle.
  const db = {} as Kysely<Database>;

  it('S3 when S3_BUCKET is set, on either database; else PostgreSQL itself; else the disk', async () => {
    const withS3 = loadConfig(env({ S3_BUCKET: 'hearth', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }));
    const without = loadConfig(env({}));
    for (const kind of ['pglite', 'postgres'] as const) {
      const store = await blobStoreFor({ kind }, db, withS3);
      expect(store, kind).toBeInstanceOf(S3FileStore);
      await store.close?.();
    }
    expect(await blobStoreFor({ kind: 'postgres' }, db, without)).toBeInstanceOf(DatabaseFileStore);
    expect(await blobStoreFor({ kind: 'pglite' }, db, without)).toBeInstanceOf(FileStore);
  });
});
