import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64UrlToBytes, bytesToBase64, bytesToBase64Url } from '@/contract/base64';

const random = (length: number): Uint8Array => {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(length, i + 65536)));
  return bytes;
};

describe('base64 codec', () => {
  it('agrees with Node Buffer both ways for every length up to 70 and for large arrays (chunked)', () => {
    const lengths = [...Array.from({ length: 71 }, (_, i) => i), 100, 0x8000 - 1, 0x8000, 0x8000 + 1, 0x8000 + 7, 65_536, 3 * 0x8000 + 7, 300_001];
    for (const length of lengths) {
      const bytes = random(length);
      const base64 = Buffer.from(bytes).toString('base64');
      const base64url = Buffer.from(bytes).toString('base64url');
      expect(bytesToBase64(bytes)).toBe(base64);
      expect(bytesToBase64Url(bytes)).toBe(base64url);
      // Buffer.equals: toEqual walks large typed arrays element by element, slowly.
      expect(Buffer.from(base64ToBytes(base64)).equals(bytes), `length ${length}`).toBe(true);
      expect(Buffer.from(base64UrlToBytes(base64url)).equals(bytes), `length ${length}`).toBe(true);
    }
  });

  it('encodes every byte value, and the url alphabet has no +, / or =', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64ToBytes(bytesToBase64(all))).toEqual(all);
    expect(bytesToBase64Url(all)).not.toMatch(/[+/=]/);
    expect(bytesToBase64(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
    expect(bytesToBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('returns a plain Uint8Array over its own ArrayBuffer (usable as WebCrypto input)', () => {
    const bytes = base64ToBytes('AQID');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.buffer).toBeInstanceOf(ArrayBuffer);
    expect([...bytes]).toEqual([1, 2, 3]);
  });

  it('decodes as atob does: padding optional, whitespace ignored, other characters throw', () => {
    expect([...base64ToBytes('AQI')]).toEqual([1, 2]);
    expect([...base64ToBytes('AQ I=')]).toEqual([1, 2]);
    expect(() => base64ToBytes('A')).toThrow();
    expect(() => base64ToBytes('**==')).toThrow();
    expect(() => base64ToBytes('-_8')).toThrow();
  });

  it('reads base64url with or without padding, and standard base64 too (as the push opt-in did)', () => {
    expect([...base64UrlToBytes('-_8')]).toEqual([0xfb, 0xff]);
    expect([...base64UrlToBytes('-_8=')]).toEqual([0xfb, 0xff]);
    expect([...base64UrlToBytes('+/8=')]).toEqual([0xfb, 0xff]);
    expect(() => base64UrlToBytes('*')).toThrow();
  });

  it('reads a 65-byte uncompressed P-256 key as a VAPID public key arrives', () => {
    const key = random(65);
    key[0] = 4;
    expect(base64UrlToBytes(Buffer.from(key).toString('base64url'))).toEqual(key);
  });
});
