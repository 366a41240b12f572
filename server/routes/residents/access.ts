import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type SqlBool } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import type { Audience } from '../../lib/notifier';
import type { SignedIn } from '../../plugins/session';

/**
 * Which residents a signed-in person may reach: a young person only their own record; staff the
 * residents of the homes they work in (home_staff rows that are not deleted). Everything else,
 * other tenants included, is a 404 so an answer never reveals that a record exists.
 */
export interface ReachableResident {
  id: string;
  user_id: string;
  home_id: string;
  /** The signed-in person is this young person. */
  isSelf: boolean;
}

export async function reachableResident(app: FastifyInstance, auth: SignedIn, residentId: string): Promise<ReachableResident> {
  const row = await app.db
    .selectFrom('residents')
    .select(['residents.id', 'residents.user_id', 'residents.home_id'])
    .where('residents.tenant_id', '=', auth.tenantId)
    .where('residents.id', '=', residentId)
    .where('residents.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('residents.user_id', '=', auth.userId), eb('residents.home_id', 'in', staffHomes(app, auth))]))
    .executeTakeFirst();
  if (!row) throw new HttpError(404, chosen.notFound);
  return { ...row, isSelf: row.user_id === auth.userId };
}

/** Subquery: ids of the homes where the signed-in person is staff. */
export function staffHomes(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('home_staff')
    .select('home_staff.home_id')
    .where('home_staff.tenant_id', '=', auth.tenantId)
    .where('home_staff.user_id', '=', auth.userId)
    .where('home_staff.deleted_at', 'is', null);
}

/** Condition on a resident id column: a resident the signed-in person may reach. */
export function residentIsReachable(app: FastifyInstance, auth: SignedIn, column: Expression<unknown>): Expression<SqlBool> {
  const residents = app.db
    .selectFrom('residents')
    .select('residents.id')
    .where('residents.tenant_id', '=', auth.tenantId)
    .where('residents.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('residents.user_id', '=', auth.userId), eb('residents.home_id', 'in', staffHomes(app, auth))]));
  return sql<SqlBool>`${column} in (${residents})`;
}

/** The signed-in person as an event-stream audience (lib/notifier.ts). */
export async function audienceOf(app: FastifyInstance, auth: SignedIn): Promise<Audience> {
  const own = await app.db
    .selectFrom('residents')
    .select(['id', 'home_id'])
    .where('tenant_id', '=', auth.tenantId)
    .where('user_id', '=', auth.userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const staff = (await staffHomes(app, auth).execute()).map((r) => r.home_id);
  return {
    residentId: own?.id ?? null,
    homeIds: [...new Set([...(own ? [own.home_id] : []), ...staff])],
    staffHomeIds: staff,
  };
}
