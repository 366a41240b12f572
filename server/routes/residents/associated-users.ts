import type { FastifyInstance } from 'fastify';
import type { AssociatedUser } from '../../../src/contract/residents';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { ASSOCIATED_USER_SPEC, associatedUsersQuery } from '../../domain/residents/associated-users';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/projects/residents/{id}/associated-users: the staff of the young person's home (domain/residents/associated-users.ts). */
export default async function associatedUsersRoute(app: FastifyInstance) {
  app.get(paths.associatedUsers.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const list = parseListQuery(request.query, ASSOCIATED_USER_SPEC);
    const resident = await reachableResident(app, auth, id);
    const query = associatedUsersQuery(app.db, auth.tenantId, resident);
    return fetchPage<AssociatedUser>(app.syncHorizon, list, () => applyListQuery(query, list, ASSOCIATED_USER_SPEC).execute());
  });
}
