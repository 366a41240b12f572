import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AssociatedUser } from '../../../src/contract/residents';
import { idParamsSchema } from '../../../src/contract/users';
import { applyListQuery, fetchPage, parseListQuery, syncSelect, type ListSpec } from '../../lib/list-query';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { reachableResident } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/**
 * GET /api/v1/projects/residents/{id}/associated-users: the staff of the young person's home, one
 * row per person (id = user id). A row changes when the person or their place in the home does;
 * it becomes a tombstone when they leave the home (home_staff soft delete) or are removed.
 */
const updatedAt = sql`greatest(home_staff.updated_at, users.updated_at)`;
const deletedAt = sql`coalesce(home_staff.deleted_at, users.deleted_at)`;

const spec: ListSpec = {
  fields: {
    first_name: { expr: sql.ref('users.first_name'), type: 'text' },
    last_name: { expr: sql.ref('users.last_name'), type: 'text' },
    job_title: { expr: sql.ref('users.job_title'), type: 'text' },
  },
  sorts: { first_name: sql.ref('users.first_name'), last_name: sql.ref('users.last_name') },
  defaultSort: [['first_name', 'asc'], ['last_name', 'asc']],
  updatedAt,
  id: sql.ref('users.id'),
  deletedAt,
};

export default async function associatedUsersRoute(app: FastifyInstance) {
  app.get(paths.associatedUsers.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    const list = parseListQuery(request.query, spec);
    const resident = await reachableResident(app, auth, id);
    const query = app.db
      .selectFrom('home_staff')
      .innerJoin('users', 'users.id', 'home_staff.user_id')
      .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
      .select([
        ...syncSelect(spec),
        'users.first_name',
        'users.last_name',
        'users.job_title',
        sql<boolean>`user_photos.id is not null`.as('has_photo'),
      ])
      .where('home_staff.tenant_id', '=', auth.tenantId)
      .where('users.tenant_id', '=', auth.tenantId)
      .where('home_staff.home_id', '=', resident.home_id);
    return fetchPage<AssociatedUser>(app.syncHorizon, list, () => applyListQuery(query, list, spec).execute());
  });
}
