import { describe, expect, it } from 'vitest';
import { ALLOWED_FILE_TYPES, isAllowedMime } from '@/contract/entries';
import { allowedBlobType, allowedFileType, nameFitsType, SNIFF_BYTES, sniffBlob, sniffBytes } from '@/contract/file-type';

const bytes = (text: string, tail: number[] = []): Uint8Array => Uint8Array.from([...Array.from(text, (c) => c.charCodeAt(0)), ...tail]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

describe('file type sniffing (magic bytes)', () => {
  it('recognises every allowed type (the cases of src/lib and server/lib)', () => {
    expect(sniffBytes(JPEG)).toBe('image/jpeg');
    expect(sniffBytes(PNG)).toBe('image/png');
    expect(sniffBytes(bytes('GIF87a'))).toBe('image/gif');
    expect(sniffBytes(bytes('GIF89a...'))).toBe('image/gif');
    expect(sniffBytes(bytes('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffBytes(bytes('%PDF-1.7\n'))).toBe('application/pdf');
    for (const sniffed of ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf']) expect(isAllowedMime(sniffed)).toBe(true);
    expect(Object.keys(ALLOWED_FILE_TYPES).sort()).toEqual(['application/pdf', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);
  });

  it('refuses other content and headers cut short', () => {
    expect(sniffBytes(bytes('<html>'))).toBeNull();
    expect(sniffBytes(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(sniffBytes(new Uint8Array())).toBeNull();
    expect(sniffBytes(JPEG.subarray(0, 2))).toBeNull();
    expect(sniffBytes(PNG.subarray(0, 7))).toBeNull();
    expect(sniffBytes(bytes('GIF88a'))).toBeNull();
    expect(sniffBytes(bytes('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffBytes(bytes('RIFF\0\0\0\0WEB'))).toBeNull();
    expect(sniffBytes(bytes('%PDF'))).toBeNull();
  });

  it('takes a Node Buffer as it is (the server passes upload buffers)', async () => {
    const { Buffer } = await import('node:buffer');
    expect(sniffBytes(Buffer.from(PNG))).toBe('image/png');
    expect(allowedFileType(Buffer.from('%PDF-1.4'), 'Letter.PDF')).toBe('application/pdf');
  });

  it('needs only the first SNIFF_BYTES bytes, and reads them from a Blob', async () => {
    expect(SNIFF_BYTES).toBeGreaterThanOrEqual(12);
    expect(await sniffBlob(new Blob([PNG, new Uint8Array(100)]))).toBe('image/png');
    expect(await sniffBlob(new Blob(['hello']))).toBeNull();
  });

  it('wants the name to agree with the content (case-insensitive, any of the type’s extensions)', async () => {
    expect(allowedFileType(JPEG, 'photo.jpg')).toBe('image/jpeg');
    expect(allowedFileType(JPEG, 'PHOTO.JPEG')).toBe('image/jpeg');
    expect(allowedFileType(JPEG, 'photo.pdf')).toBeNull();
    expect(allowedFileType(JPEG, 'photo.jpg.exe')).toBeNull();
    expect(allowedFileType(JPEG, 'photo')).toBeNull();
    expect(allowedFileType(bytes('<html>'), 'page.png')).toBeNull();
    expect(nameFitsType('archive.tar.png', 'image/png')).toBe(true);
    expect(nameFitsType('png', 'image/png')).toBe(false);
    expect(await allowedBlobType(new File([PNG], 'drawing.png'))).toBe('image/png');
    expect(await allowedBlobType(new File([PNG], 'drawing.gif'))).toBeNull();
    expect(await allowedBlobType(new Blob([PNG]))).toBeNull();
  });
});
