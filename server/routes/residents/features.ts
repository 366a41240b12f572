import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { noteStaffChange } from '../../plugins/staff-audit';
import { requirePutOverride } from '../../domain/entries/writes';
import { setResidentFeatures } from '../../domain/residents/features';

/** PUT /api/v1/projects/residents/{id}/features (also POST with ?_method=PUT), staff only: domain/residents/features.ts. */
export default async function residentFeaturesRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await setResidentFeatures(app, auth, id, request.body, (change) => noteStaffChange(request, change)) };
  };
  const config = { idempotent: true };
  app.put(paths.residentFeatures.pattern, { config }, handler);
  app.post(paths.residentFeatures.pattern, { config }, async (request) => {
    requirePutOverride(request);
    return handler(request);
  });
}
