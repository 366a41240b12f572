import type { Readable } from 'node:stream';

/**
 * Where uploaded files' bytes live, by tenant and storage key (32 hex characters made by the
 * store, never a name the client chose). Three stores keep this contract (app.ts blobStoreFor
 * picks one):
 * - lib/s3-file-store.ts, an S3-compatible bucket, when S3_BUCKET is set, on either database:
 *   every process on every machine reads what any of them wrote, outside the database (sealed
 *   there by the store, lib/sealed-chunks.ts);
 * - lib/database-file-store.ts, PostgreSQL itself, on PostgreSQL otherwise: the same reach, and a
 *   database backup holds the files (issue 13);
 * - lib/file-store.ts, the local disk under DATA_DIR: the embedded database's default (one process).
 * Every way a write is whole or absent (never half a file), and the caller writes before the row
 * that points at the file and removes the file when that row is not committed.
 */
export interface BlobStore {
  /** Stores the bytes; resolves with the new storage key once they are durable. */
  write(tenantId: string, bytes: Buffer): Promise<string>;
  /** The whole file; rejects when it is not there. */
  read(tenantId: string, key: string): Promise<Buffer>;
  /** The size in bytes, or null when the file is not there. */
  size(tenantId: string, key: string): Promise<number | null>;
  /** The bytes from `start` to `end` (both included) as a stream: large files are never read whole. */
  stream(tenantId: string, key: string, start: number, end: number): Readable;
  /** Best effort: a file whose row was never committed (or was removed) is deleted. */
  remove(tenantId: string, key: string): Promise<void>;
  /** Lets go of what the store holds open (the S3 store's connections); the others hold nothing. */
  close?(): Promise<void>;
}

export const STORAGE_KEY = /^[0-9a-f]{32}$/;
export const TENANT_ID = /^[0-9a-f-]{36}$/;
