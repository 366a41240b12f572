import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openChunks, openingStream, plainSize, SEAL_OVERHEAD, sealChunks, sealedSize, sealedSpan, type Sealing } from '../../server/lib/sealed-chunks';

/** Files sealed in chunks (lib/sealed-chunks.ts): sizes both ways, and opening as the bytes arrive, in any pieces. */
const sealing: Sealing = { key: randomBytes(32), chunk: 10 };
const CONTEXT = '0190a000-0000-7000-8000-000000000001/0123456789abcdef0123456789abcdef';

async function opened(stored: Buffer, first: number, last: number, total: number, pieceSize: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < stored.length; at += pieceSize) pieces.push(stored.subarray(at, at + pieceSize));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(pieces).pipe(openingStream(sealing, CONTEXT, first, last, total))) out.push(chunk as Buffer);
  return Buffer.concat(out);
}

describe('sealed chunks', () => {
  it('knows a file’s size from its stored size, and no size that no file seals to', () => {
    for (let size = 0; size <= 120; size++) expect(plainSize(sealedSize(size, 10), 10), String(size)).toBe(size);
    expect(sealedSize(0, 10)).toBe(SEAL_OVERHEAD);
    expect(sealedSize(20, 10)).toBe(20 + 2 * SEAL_OVERHEAD);
    for (const impossible of [0, 27, SEAL_OVERHEAD + 11, 2 * (10 + SEAL_OVERHEAD) + 5]) expect(plainSize(impossible, 10), String(impossible)).toBeNull();
  });

  it('opens what it sealed, whole or from any chunk, whatever the pieces the bytes arrive in', async () => {
    const bytes = randomBytes(47);
    const stored = sealChunks(sealing, CONTEXT, bytes);
    expect(openChunks(sealing, CONTEXT, stored).equals(bytes)).toBe(true);
    for (const [start, end] of [[0, 46], [0, 0], [9, 10], [13, 38], [40, 46], [46, 46]] as const) {
      const span = sealedSpan(start, end, 10);
      for (const pieceSize of [1, 7, 38, 1000]) {
        const plain = await opened(stored.subarray(span.from, span.to + 1), span.first, Math.floor(end / 10), stored.length, pieceSize);
        expect(plain.subarray(start - span.first * 10, end - span.first * 10 + 1).equals(bytes.subarray(start, end + 1)), `${start}-${end} in ${pieceSize}s`).toBe(true);
      }
    }
  });

  it('refuses another file’s chunks and bytes that stop before the chunks asked for', async () => {
    const stored = sealChunks(sealing, CONTEXT, randomBytes(30));
    expect(() => openChunks(sealing, CONTEXT.replace('0123', '3210'), stored)).toThrow();
    expect(() => openChunks({ ...sealing, key: randomBytes(32) }, CONTEXT, stored)).toThrow();
    // Chunks 0 and 1 of three, asked through chunk 2: cut short.
    await expect(opened(stored.subarray(0, 2 * (10 + SEAL_OVERHEAD)), 0, 2, stored.length, 5)).rejects.toThrow(/cut short/);
    await expect(opened(stored.subarray(0, 2 * (10 + SEAL_OVERHEAD) - 1), 0, 1, stored.length, 5)).rejects.toThrow(/cut short/);
  });
});
