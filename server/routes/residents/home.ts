import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paths } from '../../../src/contract/paths';
import { idParamsSchema } from '../../../src/contract/users';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { noteStaffChange } from '../../plugins/staff-audit';
import { requirePutOverride } from '../../domain/entries/writes';
import { moveResident } from '../../domain/residents/move';

/** PUT /api/v1/projects/residents/{id}/home (also POST with ?_method=PUT), staff only: domain/residents/move.ts. */
export default async function residentHomeRoute(app: FastifyInstance) {
  const handler = async (request: FastifyRequest) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    return { success: true as const, data: await moveResident(app, auth, id, request.body, (change) => noteStaffChange(request, change)) };
  };
  const config = { idempotent: true };
  app.put(paths.residentHome.pattern, { config }, handler);
  app.post(paths.residentHome.pattern, { config }, async (request) => {
    requirePutOverride(request);
    return handler(request);
  });
}
