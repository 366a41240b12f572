import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Uploaded files live outside the database, under `<dataDir>/files/<tenant id>/<storage key>`.
 * The storage key is 32 random hex characters made here, never a name the client chose; a file is
 * written to a temporary name, flushed and renamed, so a reader never sees half a file.
 */
const KEY = /^[0-9a-f]{32}$/;
const TENANT = /^[0-9a-f-]{36}$/;

export class FileStore {
  constructor(private readonly root: string) {}

  private dir(tenantId: string): string {
    if (!TENANT.test(tenantId)) throw new Error('file store: bad tenant id');
    return join(this.root, 'files', tenantId);
  }

  async write(tenantId: string, bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const dir = this.dir(tenantId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${key}.tmp`);
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, join(dir, key));
    return key;
  }

  async read(tenantId: string, key: string): Promise<Buffer> {
    if (!KEY.test(key)) throw new Error('file store: bad key');
    return readFile(join(this.dir(tenantId), key));
  }

  /** The size of a stored file in bytes, or null when it is not there. */
  async size(tenantId: string, key: string): Promise<number | null> {
    if (!KEY.test(key)) throw new Error('file store: bad key');
    return stat(join(this.dir(tenantId), key)).then((s) => s.size, () => null);
  }

  /** The bytes from `start` to `end` (both included) as a stream: large files are never read whole. */
  stream(tenantId: string, key: string, start: number, end: number): ReadStream {
    if (!KEY.test(key)) throw new Error('file store: bad key');
    return createReadStream(join(this.dir(tenantId), key), { start, end });
  }

  /** Best effort: a file whose row was never committed (or was removed) is deleted. */
  async remove(tenantId: string, key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await unlink(join(this.dir(tenantId), key)).catch(() => undefined);
  }
}
