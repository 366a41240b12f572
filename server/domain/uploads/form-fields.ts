import type { FastifyRequest } from 'fastify';

/** The files and fields of a form body (plugins/multipart-bodies.ts reads the body). */
export interface UploadedFile {
  /** The part's field name: `files[0]`, `files[]`, `canvas`, `image`... */
  field: string;
  filename: string;
  data: Buffer;
}

const uploads = new WeakMap<FastifyRequest, UploadedFile[]>();

/** The file parts of a request, kept beside it, never in its body. */
export const uploadedFiles = (request: FastifyRequest): UploadedFile[] => uploads.get(request) ?? [];

/** Used by the multipart plugin only. */
export function rememberUpload(request: FastifyRequest, file: UploadedFile): void {
  uploads.set(request, [...uploadedFiles(request), file]);
}

/** A repeated list field however it came: `name[]` (multipart, repeated or single), `name`, `name[0]`..., JSON arrays. */
export function listField(body: Record<string, unknown>, name: string): unknown[] | undefined {
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
  // An empty `name[]=` part is how a form says "none". Anything that is not a string stays in, so the
  // contract refuses it (422): dropping it would turn `{"a":"b"}` into an empty list, and on an update
  // unshare everything (issue 12 finding 9).
  return found.filter((v) => v !== '');
}

/**
 * A plain text field, or undefined when absent (multipart sends strings; JSON may send null). A value
 * that is no text (a JSON object or list, a form field sent twice) is handed on as it came, so the
 * contract refuses it (422 on that field): dropped, the write went on without it and answered 2xx,
 * keeping none of what was sent there.
 */
export function textField(body: Record<string, unknown>, name: string): unknown {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value;
}
