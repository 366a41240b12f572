import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { entryLimits, entryMessages } from '../../../src/contract/entries';
import { HttpError } from '../../lib/http-errors';
import { parseQueryString } from '../../lib/query-string';

/**
 * Form bodies for the routes of the scope this is registered in (SPEC §5: entries and comments are
 * sent as multipart forms; JSON and url-encoded forms are accepted too). Multipart text fields
 * become `request.body` as key/values. File parts are read into memory (each at most
 * entryLimits.maxFileBytes, else 413) and kept beside the request (`uploadedFiles`), never taken
 * from the body, so a JSON body cannot pose as a file. In the body each file part is replaced by
 * `{ name, mime, size, sha256 }`: the idempotency plugin hashes the body, so its request hash
 * covers the file names and bytes, and a replay with other files is told apart.
 */
export interface UploadedFile {
  /** The part's field name: `files[0]`, `files[]`, `canvas`, `image`... */
  field: string;
  filename: string;
  data: Buffer;
}

const uploads = new WeakMap<FastifyRequest, UploadedFile[]>();

export const uploadedFiles = (request: FastifyRequest): UploadedFile[] => uploads.get(request) ?? [];
export const hasFiles = (request: FastifyRequest): boolean => uploadedFiles(request).length > 0;

/** At most this many file parts per request; more is refused before reading them. */
export const MAX_FILE_PARTS = entryLimits.maxFiles + 6;

export async function acceptFormBodies(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, parseQueryString(String(body)));
  });
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 120, fieldSize: 64 * 1024, files: MAX_FILE_PARTS, fileSize: entryLimits.maxFileBytes, parts: 140 },
    async onFile(this: FastifyRequest, part) {
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if (error && typeof error === 'object' && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, entryMessages.fileTooLarge, { files: [entryMessages.fileTooLarge] });
        }
        throw error;
      }
      const list = uploads.get(this) ?? [];
      list.push({ field: part.fieldname, filename: part.filename, data });
      uploads.set(this, list);
      (part as unknown as { value: unknown }).value = {
        name: part.filename,
        mime: part.mimetype,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      };
    },
  });
}

/** A repeated list field however it came: `name[]` (multipart, repeated or single), `name`, `name[0]`..., JSON arrays. */
export function listField(body: Record<string, unknown>, name: string): string[] | undefined {
  const found: unknown[] = [];
  let present = false;
  for (const [key, value] of Object.entries(body)) {
    if (key === name || key === `${name}[]` || new RegExp(`^${name}\\[\\d+\\]$`).test(key)) {
      present = true;
      if (Array.isArray(value)) found.push(...value);
      else found.push(value);
    }
  }
  if (!present) return undefined;
  return found.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** A plain text field, or undefined when absent (multipart sends strings; JSON may send null). */
export function textField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
