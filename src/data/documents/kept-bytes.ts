/**
 * The bytes of documents kept offline (issue 11), encrypted like every file in the replica's `files`
 * collection, in chunks: `kept:<document id>:<file id>:<n>` (kind `kept`, `data` the chunk as base64
 * in the document's one AES-GCM ciphertext, src/data/database/encrypted-storage.ts).
 *
 * Why chunks of 1 MiB: one RxDB document is sealed as one JSON text. A file as one document would
 * be held several times over in memory at once (bytes, base64, JSON, ciphertext, its base64: about
 * five copies, ~100 MB for a 20 MB video) on the main thread of a cheap phone, and written to
 * IndexedDB in one transaction. A 1 MiB chunk is a ~1.8 MB stored string: sealed in a few
 * milliseconds, one small transaction each, downloaded with one range request each (a long video
 * is kept a chunk at a time and resumes where it stopped), and a chunk's plaintext is never kept in
 * the storage wrapper's cache (it skips records this big).
 */
import { base64ToBytes, bytesToBase64 } from '@/contract/base64';
import { incrementalRemoveEmptied } from '../replica/remove-emptied';
import type { ReplicaDatabase } from '../replica/replica-store';
import { SYNCED, syncFields, type FileDoc, type KeptBlob } from '../replica/types';

export const KEPT_CHUNK_BYTES = 1024 * 1024;

export const keptChunkId = (documentId: string, fileId: string, index: number): string => `kept:${documentId}:${fileId}:${index}`;

/** How many chunks a file of `size` bytes takes (an empty file takes one, empty). */
export const chunkCount = (size: number): number => Math.max(1, Math.ceil(size / KEPT_CHUNK_BYTES));

/** The byte range of chunk `index` of a file of `size` bytes (inclusive end). */
export function chunkRange(size: number, index: number): { start: number; end: number } {
  const start = index * KEPT_CHUNK_BYTES;
  return { start, end: Math.max(start, Math.min(size, start + KEPT_CHUNK_BYTES) - 1) };
}

export async function storeChunk(db: ReplicaDatabase, documentId: string, fileId: string, index: number, bytes: Uint8Array, mime: string): Promise<void> {
  const doc: FileDoc = {
    id: keptChunkId(documentId, fileId, index),
    kind: 'kept',
    updated_at: new Date().toISOString(),
    content_type: mime,
    data: bytesToBase64(bytes),
    ...syncFields(SYNCED),
  };
  await db.files.upsert(doc);
}

/** A kept file, whole, as a Blob (null unless every chunk is here). */
export async function readKeptFile(db: ReplicaDatabase, documentId: string, blob: KeptBlob): Promise<Blob | null> {
  const total = chunkCount(blob.size);
  if (blob.chunks < total) return null;
  const ids = Array.from({ length: total }, (_, i) => keptChunkId(documentId, blob.id, i));
  const found = await db.files.findByIds(ids).exec();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (const id of ids) {
    const data = (found.get(id)?.toJSON() as FileDoc | undefined)?.data;
    if (data === undefined || data === null) {
      if (blob.size === 0) continue;
      return null;
    }
    parts.push(base64ToBytes(data));
  }
  return new Blob(parts, { type: blob.mime });
}

/**
 * Deletes file documents for good, bytes first. RxDB never hard-deletes: a removed document stays
 * as a tombstone holding its last data, so removing a chunk as it is would keep its ciphertext on
 * the device and free nothing. Each is emptied in the same write that marks it deleted
 * (../replica/remove-emptied.ts). Ids that are not there are skipped.
 */
export async function eraseFileDocs(db: ReplicaDatabase, ids: readonly string[]): Promise<void> {
  if (db.closed || ids.length === 0) return;
  const found = await db.files.findByIds([...ids]).exec();
  for (const doc of found.values()) {
    if (db.closed) return;
    await incrementalRemoveEmptied(doc).catch(() => undefined);
  }
}

/** Forgets the stored chunks of these files of a document (every chunk a file of its size can have). */
export function removeKeptFiles(db: ReplicaDatabase, documentId: string, blobs: readonly Pick<KeptBlob, 'id' | 'size'>[]): Promise<void> {
  const ids = blobs.flatMap((blob) => Array.from({ length: chunkCount(blob.size) }, (_, i) => keptChunkId(documentId, blob.id, i)));
  return eraseFileDocs(db, ids);
}
