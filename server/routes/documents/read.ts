import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { documentItemParamsSchema, documentMessages } from '../../../src/contract/documents';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { httpDate, ifRangeHolds, noneMatch, rangeOf } from '../../lib/byte-ranges';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { readableBlob, type ReadableBlob } from '../../domain/documents/blobs';
import { listDocuments, showDocument } from '../../domain/documents/queries';
import { listSubmissions } from '../../domain/documents/submissions';

/**
 * Documents, reads (issue 11; docs/api.md): the list (SPEC §7 `GET /v1/documents`, checkpoint mode),
 * one document, the blobs (SPEC §7 "any document path as a blob", with range requests) and, for
 * staff, a form document's submissions. Queries and the access rule live in domain/.
 *
 * Blobs are served like journal files (routes/files/view.ts): the type detected at upload, never
 * sniffed (nosniff), inline (PDFs as attachment), `private, no-store`, sandboxed by CSP, same-origin
 * only; plus `Accept-Ranges: bytes`, a strong ETag (the SHA-256 of the bytes), Last-Modified,
 * If-None-Match (304), Range and If-Range (lib/byte-ranges.ts).
 */
export default async function documentReadRoutes(app: FastifyInstance) {
  app.get(paths.documents.pattern, async (request) => {
    const auth = requireAuth(request);
    return listDocuments(app, auth, request.query);
  });

  app.get(paths.document.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await showDocument(app, auth, id) };
  });

  // Blobs are bytes with ranges: never compressed per request (a compressed 206 would be wrong; plugins/compression.ts).
  app.get(paths.documentBlob.pattern, { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return sendBlob(request, reply, auth.tenantId, await readableBlob(app, auth, id, null));
  });

  app.get(paths.documentItemBlob.pattern, { compress: false }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id, itemId } = parse(documentItemParamsSchema, request.params);
    return sendBlob(request, reply, auth.tenantId, await readableBlob(app, auth, id, itemId));
  });

  app.get(paths.documentSubmissions.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return listSubmissions(app, auth, id, request.query);
  });

  async function sendBlob(request: FastifyRequest, reply: FastifyReply, tenantId: string, blob: ReadableBlob) {
    const size = await app.fileStore.size(tenantId, blob.storage_key);
    if (size === null) {
      request.log.error({ blobId: blob.id }, 'stored document file missing');
      throw new HttpError(404, documentMessages.notFound);
    }
    const etag = `"${blob.sha256}"`;
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const range = ifRangeHolds(header('if-range'), etag, blob.created_at) ? rangeOf(header('range'), size) : ({ kind: 'whole' } as const);
    reply.header('Accept-Ranges', 'bytes').header('ETag', etag).header('Last-Modified', httpDate(blob.created_at));
    if (noneMatch(header('if-none-match'), etag)) return reply.code(304).header('Cache-Control', 'private, no-store').send();
    if (range.kind === 'unsatisfiable') {
      throw new HttpError(416, 'The range asked for is not in this file', { range: ['The range asked for is not in this file'] }, { 'Content-Range': `bytes */${size}` });
    }
    const disposition = blob.mime === 'application/pdf' ? 'attachment' : 'inline';
    const ascii = blob.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    const [start, end] = range.kind === 'partial' ? [range.start, range.end] : [0, size - 1];
    reply
      .header('Content-Type', blob.mime === 'text/plain' ? 'text/plain; charset=utf-8' : blob.mime)
      .header('Content-Disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(blob.name)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cross-Origin-Resource-Policy', 'same-origin')
      .header('Content-Length', String(end - start + 1));
    if (range.kind === 'partial') reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`);
    if (request.method === 'HEAD' || size === 0) return reply.send(Buffer.alloc(0));
    return reply.send(app.fileStore.stream(tenantId, blob.storage_key, start, end));
  }
}
