import type { FastifyInstance } from 'fastify';
import { documentLimits } from '../../../src/contract/documents';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { requirePutOverride } from '../../domain/entries/writes';
import { submitForm } from '../../domain/documents/submissions';
import { shareDocument, updateDocument, withdrawDocument } from '../../domain/documents/writes';

/**
 * Documents, writes (registered in app.ts in their own form scope: multipart with the documents'
 * larger limits, url-encoded or JSON), all idempotent with Idempotency-Key:
 * - staff (docs/api.md): POST /v1/documents shares, POST /v1/documents/{id}?_method=PUT updates,
 *   DELETE /v1/documents/{id} withdraws;
 * - the young person: POST /v1/documents/{id}/submissions sends a form document's answers.
 * The rules are in domain/documents/.
 */
export default async function documentWriteRoutes(app: FastifyInstance) {
  const config = { idempotent: true };
  const bodyLimit = documentLimits.maxTextBytes;

  app.post(paths.documents.pattern, { config, bodyLimit }, async (request, reply) => {
    const auth = requireAuth(request);
    const data = await shareDocument(app, auth, request);
    return reply.code(201).send({ success: true as const, data });
  });

  app.post(paths.document.pattern, { config, bodyLimit }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    requirePutOverride(request);
    return { success: true as const, data: await updateDocument(app, auth, id, request) };
  });

  app.delete(paths.document.pattern, { config }, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await withdrawDocument(app, auth, id) };
  });

  app.post(paths.documentSubmissions.pattern, { config }, async (request, reply) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const data = await submitForm(app, auth, id, request);
    return reply.code(201).send({ success: true as const, data });
  });
}
