import { ALLOWED_FILE_TYPES, type AllowedMime } from './entries';

/**
 * The type a file really is, from its first bytes (magic numbers), for the attachment types the
 * contract allows (ALLOWED_FILE_TYPES). One sniffer for the device (before anything is queued) and
 * the server (uploads, the image check): Node's Buffer is a Uint8Array, so it passes as it is.
 */
export type SniffedType = AllowedMime;

/** How many leading bytes `sniffBytes` needs at most (WebP's tag sits at bytes 8 to 11). */
export const SNIFF_BYTES = 16;

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GIF87A = ascii('GIF87a');
const GIF89A = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');
const PDF = ascii('%PDF-');

/** The allowed type the bytes start with, or null for anything else (including too few bytes). */
export function sniffBytes(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  if (startsWith(bytes, PDF)) return 'application/pdf';
  return null;
}

/** Reads the first bytes of a Blob (a File the person picked) and sniffs them. */
export async function sniffBlob(file: Blob): Promise<SniffedType | null> {
  return sniffBytes(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
}

/**
 * True when the name ends with one of the type's extensions (case-insensitive). The server's
 * `endsWith` and the device's "last extension equals" were the same test: no allowed extension
 * holds a second dot or a slash.
 */
export function nameFitsType(name: string, mime: AllowedMime): boolean {
  const lower = name.toLowerCase();
  return (ALLOWED_FILE_TYPES[mime] as readonly string[]).some((extension) => lower.endsWith(extension));
}

/** The sniffed type when the name's extension belongs to it too; otherwise null. */
export function allowedFileType(bytes: Uint8Array, name: string): SniffedType | null {
  const mime = sniffBytes(bytes);
  return mime && nameFitsType(name, mime) ? mime : null;
}

/** `allowedFileType` for a Blob (a File the person picked; its name when it has one). */
export async function allowedBlobType(file: Blob & { readonly name?: string }): Promise<SniffedType | null> {
  const mime = await sniffBlob(file);
  return mime && nameFitsType(file.name ?? '', mime) ? mime : null;
}
