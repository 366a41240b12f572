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

/**
 * Documents staff share (issue 11): a wider set of types than attachments, each checked by content
 * AND by the name's extension, like attachments. Images as attachments; PDF; short video (MP4 and
 * WebM); audio (MP3, Ogg, WAV, M4A); plain text (UTF-8, no markup: see `isPlainText`).
 */
export const DOCUMENT_FILE_TYPES = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
  'image/gif': ['.gif'],
  'application/pdf': ['.pdf'],
  'video/mp4': ['.mp4', '.m4v'],
  'video/webm': ['.webm'],
  'audio/mpeg': ['.mp3'],
  'audio/ogg': ['.ogg', '.oga', '.opus'],
  'audio/wav': ['.wav'],
  'audio/mp4': ['.m4a'],
  'text/plain': ['.txt'],
} as const;
export type DocumentMime = keyof typeof DOCUMENT_FILE_TYPES;
export const isDocumentMime = (mime: string): mime is DocumentMime => Object.hasOwn(DOCUMENT_FILE_TYPES, mime);

/** How many leading bytes `sniffDocumentBytes` looks at for binary types (WebM's DocType sits in its EBML header). */
export const DOCUMENT_SNIFF_BYTES = 64;

const FTYP = ascii('ftyp');
const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const WEBM_DOCTYPE = ascii('webm');
const OGG = ascii('OggS');
const WAVE = ascii('WAVE');
const ID3 = ascii('ID3');
/** ISO base media brands (bytes 8 to 11) of audio-only MP4 files. */
const M4A_BRANDS = new Set(['M4A ', 'M4B ']);
/** Brands of MP4 video a browser plays; QuickTime ('qt  ') and 3GPP are not among them. */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'mmp4', 'dash', 'MSNV']);

const text4 = (bytes: Uint8Array, offset: number): string => String.fromCharCode(...bytes.subarray(offset, offset + 4));

function indexOf(bytes: Uint8Array, needle: readonly number[], limit: number): number {
  const end = Math.min(bytes.length, limit) - needle.length;
  for (let i = 0; i <= end; i++) if (startsWith(bytes, needle, i)) return i;
  return -1;
}

/** An MPEG audio frame header: 11 sync bits, a defined version, layer III. */
function isMp3Frame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff) return false;
  const b1 = bytes[1]!;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  return (b1 & 0xe0) === 0xe0 && version !== 1 && layer === 1;
}

/**
 * Plain text as a document may be: UTF-8 (a BOM allowed), no control characters other than tab,
 * line feed, form feed and carriage return, and no markup: a `<` followed by a letter, `!`, `?` or
 * `/` (how a browser's sniffer or parser would start a tag) makes it not plain text, so an HTML
 * or SVG file cannot pose as text, whatever the file is called.
 */
export function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return false;
  return !/<[A-Za-z!?/]/.test(text);
}

/** The document type the bytes are, or null (binary types by magic bytes; text by `isPlainText`). */
export function sniffDocumentBytes(bytes: Uint8Array): DocumentMime | null {
  const image = sniffBytes(bytes);
  if (image) return image;
  if (startsWith(bytes, FTYP, 4)) {
    const brand = text4(bytes, 8);
    if (M4A_BRANDS.has(brand)) return 'audio/mp4';
    if (MP4_BRANDS.has(brand)) return 'video/mp4';
    return null;
  }
  if (startsWith(bytes, EBML)) return indexOf(bytes, WEBM_DOCTYPE, DOCUMENT_SNIFF_BYTES) > 0 ? 'video/webm' : null;
  if (startsWith(bytes, OGG)) return 'audio/ogg';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WAVE, 8)) return 'audio/wav';
  if (startsWith(bytes, ID3) || isMp3Frame(bytes)) return 'audio/mpeg';
  return bytes.length > 0 && isPlainText(bytes) ? 'text/plain' : null;
}

/** The document type when the name's extension belongs to it too; otherwise null. */
export function allowedDocumentType(bytes: Uint8Array, name: string): DocumentMime | null {
  const mime = sniffDocumentBytes(bytes);
  if (!mime) return null;
  const lower = name.toLowerCase();
  return (DOCUMENT_FILE_TYPES[mime] as readonly string[]).some((extension) => lower.endsWith(extension)) ? mime : null;
}
