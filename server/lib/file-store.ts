import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { STORAGE_KEY as KEY, TENANT_ID as TENANT, type BlobStore } from './blob-store';

/**
 * Uploaded files on the local disk, under `<dataDir>/files/<tenant id>/<storage key>`: the store of
 * the embedded database, whose server is one process on one machine (lib/blob-store.ts; on
 * PostgreSQL the bytes are in the database, lib/database-file-store.ts). The storage key is 32
 * random hex characters made here, never a name the client chose; a file is written to a
 * temporary name, flushed and renamed, so a reader never sees half a file.
 */
const TEMPORARY = /^\.[0-9a-f]{32}\.tmp$/;

export class FileStore implements BlobStore {
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

  /**
   * Deletes the temporary files a crash left behind (a write cut off between open and rename;
   * issue 12, finding 10). Only at start, by the process entry (server/main.ts): while a server
   * runs, a temporary file may be a write in progress. Returns how many went.
   */
  async removeLeftovers(): Promise<number> {
    const base = join(this.root, 'files');
    const tenants = await readdir(base, { withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const tenant of tenants) {
      if (!tenant.isDirectory() || !TENANT.test(tenant.name)) continue;
      const dir = join(base, tenant.name);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!TEMPORARY.test(name)) continue;
        await unlink(join(dir, name)).then(() => removed++, () => undefined);
      }
    }
    return removed;
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
