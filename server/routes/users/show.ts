import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { idParamsSchema, type PublicUser } from '../../../src/contract/users';
import { HttpError } from '../../lib/http-errors';
import { parse } from '../../lib/validate';
import { requireAuth } from '../../plugins/session';
import { assertCanSee } from '../../domain/access';
import { paths } from '../../../src/contract/paths';

/** GET /api/v1/users/{id}: what one person may see of another. */
export default async function showUserRoute(app: FastifyInstance) {
  app.get(paths.user.pattern, async (request) => {
    const auth = requireAuth(request);
    const { id } = parse(idParamsSchema, request.params);
    await assertCanSee(app, auth, id);
    const user = await app.db
      .selectFrom('users')
      .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
      .select(['users.id', 'users.first_name', 'users.last_name', 'users.user_type_id', sql<boolean>`user_photos.id is not null`.as('has_photo')])
      .where('users.id', '=', id)
      .where('users.tenant_id', '=', auth.tenantId)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) throw new HttpError(404, chosen.notFound);
    const data: PublicUser = user;
    return { success: true as const, data };
  });
}
