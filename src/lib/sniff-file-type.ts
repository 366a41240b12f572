/**
 * The type a file really is, from its first bytes (magic numbers), for the attachment types the
 * contract allows (src/contract/entries.ts ALLOWED_FILE_TYPES). Null when it is none of them.
 */
export type SniffedType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'application/pdf';

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

export function sniffBytes(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  return null;
}

/** Reads the first 16 bytes of a Blob (a File the person picked) and sniffs them. */
export async function sniffFileType(file: Blob): Promise<SniffedType | null> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffBytes(head);
}
