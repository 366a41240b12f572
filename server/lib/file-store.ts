import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
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

  /** Best effort: a file whose row was never committed (or was removed) is deleted. */
  async remove(tenantId: string, key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await unlink(join(this.dir(tenantId), key)).catch(() => undefined);
  }
}
