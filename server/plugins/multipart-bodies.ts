import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** At most this many file parts per request; more is refused before reading them. */
const MAX_FILE_PARTS = entryLimits.maxFiles + 6;

/**
 * Registered in app.ts on the one scope that holds the routes taking forms (entry writes, comment
 * creates, the image check, objectives' writes, rewards' writes): only they accept multipart and url-encoded
 * bodies; every other route stays JSON only. Skip-override (what fastify-plugin sets) makes the parsers reach that scope's
 * routes rather than a child scope of their own.
 */
export async function multipartBodies(scope: FastifyInstance): Promise<void> {
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
      rememberUpload(this, { field: part.fieldname, filename: part.filename, data });
      (part as unknown as { value: unknown }).value = {
        name: part.filename,
        mime: part.mimetype,
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      };
    },
  });
}
Object.assign(multipartBodies, { [Symbol.for('skip-override')]: true });
