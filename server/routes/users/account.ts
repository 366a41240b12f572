import type { FastifyInstance } from 'fastify';
import type { Account, AccountUser, Resident } from '../../../src/contract/users';
import { sql } from 'kysely';
import { HttpError } from '../../lib/http-errors';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { requireAuth } from '../../plugins/session';
import { confirmedMethods } from '../../domain/mfa/methods';
import { homeIdsOf } from '../../domain/access';
import { toTheme } from '../../domain/users/themes';
import { paths } from '../../../src/contract/paths';


/** GET /api/v1/auth/user: the signed-in account (allowed while two-factor set-up is pending). */
export default async function accountRoute(app: FastifyInstance) {
  app.get(paths.account.pattern, async (request): Promise<Account> => {
    const auth = requireAuth(request, { allowSetup: true });
    const user = await app.db
      .selectFrom('users')
      .innerJoin('user_types', 'user_types.id', 'users.user_type_id')
      .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
      .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
      .select([
        'users.id',
        'users.username',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.user_type_id',
        'users.theme_id',
        'user_types.system_name as type_system_name',
        'user_types.name as type_name',
        'tenants.mfa_policy',
        sql<boolean>`user_photos.id is not null`.as('has_photo'),
      ])
      .where('users.id', '=', auth.userId)
      .where('users.tenant_id', '=', auth.tenantId)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) throw new HttpError(401, chosen.unauthenticated);

    const themes = user.theme_id === null ? [] : await app.db.selectFrom('themes').selectAll().where('id', '=', user.theme_id).execute();
    const residentRow = await app.db
      .selectFrom('residents')
      .select(['id', 'home_id', 'preferred_name', 'reward_points', 'journal_enabled', 'voice_enabled', 'rewards_enabled'])
      .where('tenant_id', '=', auth.tenantId)
      .where('user_id', '=', auth.userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const resident: Resident | null = residentRow
      ? { ...residentRow, first_name: user.first_name, last_name: user.last_name }
      : null;

    const homeIds = await homeIdsOf(app, auth.tenantId, auth.userId);
    const homes =
      homeIds.length === 0
        ? []
        : await app.db
            .selectFrom('homes')
            .select(['id', 'name'])
            .where('tenant_id', '=', auth.tenantId)
            .where('id', 'in', homeIds)
            .where('deleted_at', 'is', null)
            .orderBy('name')
            .execute();
    const methods = await confirmedMethods(app, auth.tenantId, auth.userId);

    const account: AccountUser = {
      id: user.id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      user_type_id: user.user_type_id,
      user_type: { id: user.user_type_id, system_name: user.type_system_name, name: user.type_name },
      themes: themes.map(toTheme),
      has_photo: user.has_photo,
      resident,
    };
    return {
      success: true,
      user: account,
      mfa_configured: methods.length > 0,
      mfa_methods: methods,
      mfa_required: user.mfa_policy === 'required',
      permissions: { homes: Object.fromEntries(homes.map((h) => [h.id, h])) },
    };
  });
}
