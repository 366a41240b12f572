import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryString } from '../../lib/query-string';

/**
 * Form bodies for the routes of the scope this is registered in (SPEC §5: entries and comments are
 * sent as multipart forms; JSON and url-encoded forms are accepted too). Multipart text fields
 * become `request.body` as key/values. Files are drained and remembered so a route can refuse
 * them until uploads exist (the next issue stores them).
 */
const sentFiles = new WeakSet<FastifyRequest>();

export const hasFiles = (request: FastifyRequest): boolean => sentFiles.has(request);

export async function acceptFormBodies(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    done(null, parseQueryString(String(body)));
  });
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 50, fieldSize: 64 * 1024, files: 20, fileSize: 20 * 1024 * 1024, parts: 100 },
    async onFile(this: FastifyRequest, part) {
      sentFiles.add(this);
      part.file.resume();
      await new Promise<void>((resolve, reject) => {
        part.file.once('end', resolve);
        part.file.once('error', reject);
      });
    },
  });
}
