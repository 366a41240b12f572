import type { FastifyInstance } from 'fastify';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { loadResidentDetails } from '../../domain/residents/details';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/projects/residents/{id}: the young person's details (themself, or staff of their home). */
export default async function showResidentRoute(app: FastifyInstance) {
  app.get(paths.resident.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    await reachableResident(app, auth, id);
    return { success: true as const, data: await loadResidentDetails(app, auth.tenantId, id) };
  });
}
