import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { STORAGE_KEY, TENANT_ID, type BlobStore } from './blob-store';

/**
 * Uploaded files kept in PostgreSQL (migration 0011), so that every server process on every
 * machine reaches them: the store of a server on DATABASE_URL (app.ts). A file is a head row and
 * its bytes in chunks of CHUNK_SIZE, written in one transaction, so a crash or a failed insert
 * leaves nothing at all (no temporary file to sweep, nothing half-written). Reads of a range
 * (document blobs, lib/byte-ranges.ts) fetch only the chunks it covers, a few at a time, so a
 * video is streamed without being held whole in memory.
 */
export const CHUNK_SIZE = 256 * 1024;
/** Chunks fetched per query while streaming: 1 MiB at a time. */
const CHUNKS_PER_READ = 4;

function check(tenantId: string, key: string): void {
  if (!TENANT_ID.test(tenantId)) throw new Error('file store: bad tenant id');
  if (!STORAGE_KEY.test(key)) throw new Error('file store: bad key');
}

export class DatabaseFileStore implements BlobStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly chunkSize = CHUNK_SIZE,
  ) {}

  async write(tenantId: string, bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    check(tenantId, key);
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('stored_files').values({ tenant_id: tenantId, storage_key: key, size: bytes.length, chunk_size: this.chunkSize }).execute();
      for (let seq = 0; seq * this.chunkSize < bytes.length; seq++) {
        const chunk = bytes.subarray(seq * this.chunkSize, (seq + 1) * this.chunkSize);
        await tx.insertInto('stored_file_chunks').values({ tenant_id: tenantId, storage_key: key, seq, bytes: chunk }).execute();
      }
    });
    return key;
  }

  async read(tenantId: string, key: string): Promise<Buffer> {
    const head = await this.head(tenantId, key);
    if (!head) throw new Error('file store: no such file');
    const chunks = await this.db
      .selectFrom('stored_file_chunks')
      .select('bytes')
      .where('tenant_id', '=', tenantId)
      .where('storage_key', '=', key)
      .orderBy('seq')
      .execute();
    const whole = Buffer.concat(chunks.map((c) => c.bytes));
    if (whole.length !== head.size) throw new Error('file store: stored size does not match');
    return whole;
  }

  async size(tenantId: string, key: string): Promise<number | null> {
    return (await this.head(tenantId, key))?.size ?? null;
  }

  stream(tenantId: string, key: string, start: number, end: number): Readable {
    check(tenantId, key);
    const db = this.db;
    const head = () => this.head(tenantId, key);
    async function* bytes(): AsyncGenerator<Buffer> {
      const found = await head();
      if (!found) throw new Error('file store: no such file');
      const last = Math.min(end, found.size - 1);
      if (last < start) return;
      const size = found.chunk_size;
      const firstSeq = Math.floor(start / size);
      const lastSeq = Math.floor(last / size);
      for (let from = firstSeq; from <= lastSeq; from += CHUNKS_PER_READ) {
        const to = Math.min(from + CHUNKS_PER_READ - 1, lastSeq);
        const rows = await db
          .selectFrom('stored_file_chunks')
          .select(['seq', 'bytes'])
          .where('tenant_id', '=', tenantId)
          .where('storage_key', '=', key)
          .where('seq', '>=', from)
          .where('seq', '<=', to)
          .orderBy('seq')
          .execute();
        if (rows.length !== to - from + 1) throw new Error('file store: a chunk is missing');
        for (const row of rows) {
          const offset = row.seq * size;
          yield row.bytes.subarray(Math.max(0, start - offset), Math.min(row.bytes.length, last - offset + 1));
        }
      }
    }
    return Readable.from(bytes(), { objectMode: false });
  }

  async remove(tenantId: string, key: string): Promise<void> {
    if (!TENANT_ID.test(tenantId) || !STORAGE_KEY.test(key)) return;
    await this.db
      .deleteFrom('stored_files')
      .where('tenant_id', '=', tenantId)
      .where('storage_key', '=', key)
      .execute()
      .catch(() => undefined);
  }

  /**
   * Files no row points at, older than a day: an upload whose entry was never committed because
   * the process died in between (the disk store leaves such a file too). Referenced from
   * entry_files and document_blobs only; returns how many went.
   */
  async removeUnreferenced(): Promise<number> {
    const result = await this.db
      .deleteFrom('stored_files as f')
      .where('f.created_at', '<', sql<Date>`now() - interval '1 day'`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('entry_files as e')
              .select(sql`1`.as('one'))
              .whereRef('e.tenant_id', '=', 'f.tenant_id')
              .whereRef('e.storage_key', '=', 'f.storage_key'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('document_blobs as b')
              .select(sql`1`.as('one'))
              .whereRef('b.tenant_id', '=', 'f.tenant_id')
              .whereRef('b.storage_key', '=', 'f.storage_key'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private async head(tenantId: string, key: string): Promise<{ size: number; chunk_size: number } | undefined> {
    check(tenantId, key);
    return this.db
      .selectFrom('stored_files')
      .select(['size', 'chunk_size'])
      .where('tenant_id', '=', tenantId)
      .where('storage_key', '=', key)
      .executeTakeFirst();
  }
}
