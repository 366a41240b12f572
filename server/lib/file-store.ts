import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { ALLOWED_FILE_TYPES, isAllowedMime, type AllowedMime } from '../../src/contract/entries';

/**
 * Uploaded files live outside the database, under `<dataDir>/files/<tenant id>/<storage key>`.
 * The storage key is 32 random hex characters made here, never a name the client chose; a file is
 * written to a temporary name, flushed and renamed, so a reader never sees half a file.
 */
const KEY = /^[0-9a-f]{32}$/;
const TENANT = /^[0-9a-f-]{36}$/;

export class FileStore {
  constructor(private readonly root: string) {}

  private dir(tenantId: string): string {
    if (!TENANT.test(tenantId)) throw new Error('file store: bad tenant id');
    return join(this.root, 'files', tenantId);
  }

  async write(tenantId: string, bytes: Buffer): Promise<string> {
    const key = randomBytes(16).toString('hex');
    const dir = this.dir(tenantId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${key}.tmp`);
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, join(dir, key));
    return key;
  }

  async read(tenantId: string, key: string): Promise<Buffer> {
    if (!KEY.test(key)) throw new Error('file store: bad key');
    return readFile(join(this.dir(tenantId), key));
  }

  /** Best effort: a file whose row was never committed (or was removed) is deleted. */
  async remove(tenantId: string, key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await unlink(join(this.dir(tenantId), key)).catch(() => undefined);
  }
}

/** The type by content (magic bytes), or null for anything not in ALLOWED_FILE_TYPES. */
export function sniffMime(bytes: Buffer): AllowedMime | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (bytes.length >= 3 && starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 6 && (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

/** The detected type when the name's extension belongs to it too; otherwise null. */
export function allowedType(bytes: Buffer, name: string): AllowedMime | null {
  const mime = sniffMime(bytes);
  if (!mime || !isAllowedMime(mime)) return null;
  const lower = name.toLowerCase();
  return (ALLOWED_FILE_TYPES[mime] as readonly string[]).some((ext) => lower.endsWith(ext)) ? mime : null;
}

/** A display name: no path, no control or quote characters, at most 120 characters. */
export function sanitiseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.normalize('NFC').replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '').replace(/^\.+/, '').trim();
  if (!clean) return 'file';
  if (clean.length <= 120) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
  return clean.slice(0, 120 - ext.length) + ext;
}

export const isImageMime = (mime: string): boolean => mime.startsWith('image/');
