import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';

/**
 * A file sealed in chunks for a store outside the database (lib/s3-file-store.ts): AES-256-GCM
 * per chunk of `chunk` plaintext bytes, each stored as nonce (12) || ciphertext || tag (16), one
 * after the other. A bucket made readable by mistake shows nothing of what a child uploaded.
 *
 * Chunks, not one seal per file, so a range (a PDF viewer's page, a video's seek) opens only the
 * chunks it covers. Each chunk's associated data names the file (`context`: tenant and storage key),
 * its index and whether it is the last: a chunk moved to another file or place, a reordered
 * chunk, or a file cut short at a chunk boundary fails authentication instead of opening.
 */
export const SEAL_OVERHEAD = 28;
const NONCE = 12;
const TAG = 16;

export interface Sealing {
  /** 32 bytes (derived from APP_KEY for this purpose only: lib/crypto.ts deriveKeys). */
  key: Buffer;
  /** Plaintext bytes per chunk. */
  chunk: number;
}

const chunksOf = (plainBytes: number, chunk: number): number => Math.max(1, Math.ceil(plainBytes / chunk));

/** The stored size of a file of `plainBytes`. */
export const sealedSize = (plainBytes: number, chunk: number): number => plainBytes + chunksOf(plainBytes, chunk) * SEAL_OVERHEAD;

/** The file's own size from its stored size, or null when no file seals to that size. */
export function plainSize(sealedBytes: number, chunk: number): number | null {
  const plain = sealedBytes - Math.max(1, Math.ceil(sealedBytes / (chunk + SEAL_OVERHEAD))) * SEAL_OVERHEAD;
  return plain >= 0 && sealedSize(plain, chunk) === sealedBytes ? plain : null;
}

const aad = (context: string, index: number, last: boolean) => Buffer.from(`hearth-file-v1\u0000${context}\u0000${index}\u0000${last ? 1 : 0}`);

/** The whole file, sealed. */
export function sealChunks(sealing: Sealing, context: string, bytes: Buffer): Buffer {
  const count = chunksOf(bytes.length, sealing.chunk);
  const parts: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const nonce = randomBytes(NONCE);
    const cipher = createCipheriv('aes-256-gcm', sealing.key, nonce).setAAD(aad(context, index, index === count - 1));
    const plain = bytes.subarray(index * sealing.chunk, (index + 1) * sealing.chunk);
    parts.push(nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag());
  }
  return Buffer.concat(parts);
}

function openChunk(sealing: Sealing, context: string, sealed: Buffer, index: number, last: boolean): Buffer {
  if (sealed.length < SEAL_OVERHEAD) throw new Error('file store: a sealed chunk is cut short');
  const decipher = createDecipheriv('aes-256-gcm', sealing.key, sealed.subarray(0, NONCE)).setAAD(aad(context, index, last));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]);
}

/** The whole file from all of its stored bytes; throws when any chunk fails authentication. */
export function openChunks(sealing: Sealing, context: string, sealed: Buffer): Buffer {
  const plain = plainSize(sealed.length, sealing.chunk);
  if (plain === null) throw new Error('file store: the stored size is not one of a sealed file');
  const count = chunksOf(plain, sealing.chunk);
  const step = sealing.chunk + SEAL_OVERHEAD;
  const parts: Buffer[] = [];
  for (let index = 0; index < count; index++) parts.push(openChunk(sealing, context, sealed.subarray(index * step, (index + 1) * step), index, index === count - 1));
  return Buffer.concat(parts);
}

/** The stored bytes (both included) that hold the file's bytes `start` to `end`, and the first chunk's index. */
export function sealedSpan(start: number, end: number, chunk: number): { first: number; from: number; to: number } {
  const first = Math.floor(start / chunk);
  const step = chunk + SEAL_OVERHEAD;
  return { first, from: first * step, to: (Math.floor(end / chunk) + 1) * step - 1 };
}

/**
 * Opens stored bytes that begin at chunk `first` of a file whose stored size is `sealedTotal`,
 * chunk by chunk as they arrive, through chunk `last` (or the file's end): the file's bytes from
 * that chunk's start. Fails (and so ends the reader's stream with an error) on a chunk that does
 * not authenticate, or bytes that end before chunk `last` is whole.
 */
export function openingStream(sealing: Sealing, context: string, first: number, last: number, sealedTotal: number): Transform {
  const plain = plainSize(sealedTotal, sealing.chunk);
  const count = plain === null ? 0 : chunksOf(plain, sealing.chunk);
  const through = Math.min(last, count - 1);
  const step = sealing.chunk + SEAL_OVERHEAD;
  let index = first;
  let pending: Buffer = Buffer.alloc(0);
  const expected = () => Math.min(step, sealedTotal - index * step);
  return new Transform({
    transform(bytes: Buffer, _encoding, done) {
      try {
        if (plain === null) throw new Error('file store: the stored size is not one of a sealed file');
        pending = pending.length ? Buffer.concat([pending, bytes]) : bytes;
        while (index < count && pending.length >= expected()) {
          const size = expected();
          this.push(openChunk(sealing, context, pending.subarray(0, size), index, index === count - 1));
          pending = pending.subarray(size);
          index++;
        }
        if (index >= count && pending.length > 0) throw new Error('file store: more bytes than the sealed file holds');
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      done(pending.length > 0 || index <= through ? new Error('file store: a sealed chunk is cut short') : null);
    },
  });
}
