import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documentLimits, documentMessages } from '../../src/contract/documents';
import { entryLimits, entryMessages } from '../../src/contract/entries';
import { rememberUpload } from '../domain/uploads/form-fields';
import { HttpError } from '../lib/http-errors';
import { parseQueryString } from '../../src/contract/query-string';

/**
 * Form bodies for the routes of the scope this is registered in (SPEC §5: entries and comments are
 * sent as multipart forms; JSON and url-encoded forms are accepted too). Multipart text fields
 * become `request.body` as key/values. File parts are read into memory (each at most
 * entryLimits.maxFileBytes, else 413) and kept beside the request (`uploadedFiles`), never taken
 * from the body, so a JSON body cannot pose as a file. In the body each file part is replaced by
 * `{ name, mime, size, sha256 }`: the idempotency plugin hashes the body, so its request hash
 * covers the file names and bytes, and a replay with other files is told apart.
 */

/** What one scope's form bodies may hold. */
export interface FormBodyLimits {
  /** One file part, in bytes (413 with `errors.files` beyond). */
  maxFileBytes: number;
  /** File parts per request; more is refused before reading them. */
  maxFileParts: number;
  /** All file parts of a request together, in bytes (413 beyond). */
  maxTotalBytes: number;
  /** One text field, in bytes. */
  fieldSize: number;
  /** Text fields per request. */
  fields: number;
  fileTooLarge: string;
  requestTooLarge: string;
}

/** Entries, comments, the image check, objectives: attachments of at most entryLimits.maxFileBytes. */
export const ENTRY_FORM_LIMITS: FormBodyLimits = {
  maxFileBytes: entryLimits.maxFileBytes,
  maxFileParts: entryLimits.maxFiles + 6,
  maxTotalBytes: (entryLimits.maxFiles + 6) * entryLimits.maxFileBytes,
  fieldSize: 64 * 1024,
  fields: 120,
  fileTooLarge: entryMessages.fileTooLarge,
  requestTooLarge: entryMessages.fileTooLarge,
};

/** Documents staff share (issue 11): short videos, books and galleries with many pictures, a book's text as one field. */
export const DOCUMENT_FORM_LIMITS: FormBodyLimits = {
  maxFileBytes: documentLimits.maxFileBytes,
  maxFileParts: documentLimits.maxFileParts,
  maxTotalBytes: documentLimits.maxRequestBytes,
  fieldSize: documentLimits.maxTextBytes,
  fields: 60,
  fileTooLarge: documentMessages.fileTooLarge,
  requestTooLarge: documentMessages.requestTooLarge,
};

const received = new WeakMap<FastifyRequest, number>();

/**
 * Registered in app.ts on the scopes that hold the routes taking forms (entry writes, comment
 * creates, the image check, objectives' writes, rewards' writes; documents with their own, larger
 * limits): only they accept multipart and url-encoded bodies; every other route stays JSON only.
 * Skip-override (what fastify-plugin sets) makes the parsers reach that scope's routes rather than
 * a child scope of their own.
 */
export function formBodies(limits: FormBodyLimits) {
  const plugin = async function multipartBodies(scope: FastifyInstance): Promise<void> {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, parseQueryString(String(body)));
    });
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fields: limits.fields, fieldSize: limits.fieldSize, files: limits.maxFileParts, fileSize: limits.maxFileBytes, parts: limits.fields + limits.maxFileParts },
      async onFile(this: FastifyRequest, part) {
        let data: Buffer;
        try {
          data = await part.toBuffer();
        } catch (error) {
          if (error && typeof error === 'object' && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new HttpError(413, limits.fileTooLarge, { files: [limits.fileTooLarge] });
          }
          throw error;
        }
        const total = (received.get(this) ?? 0) + data.length;
        received.set(this, total);
        if (total > limits.maxTotalBytes) throw new HttpError(413, limits.requestTooLarge, { files: [limits.requestTooLarge] });
        rememberUpload(this, { field: part.fieldname, filename: part.filename, data });
        (part as unknown as { value: unknown }).value = {
          name: part.filename,
          mime: part.mimetype,
          size: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
        };
      },
    });
  };
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  return plugin;
}

/** The form bodies of entries, comments, the image check and objectives. */
export const multipartBodies = formBodies(ENTRY_FORM_LIMITS);
