import type { FastifyInstance } from 'fastify';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HttpError } from '../../lib/http-errors';
import type { SignedIn } from '../../plugins/session';

/** Ids of the homes a person belongs to: a young person's home, or the homes a carer works in. */
export async function homeIdsOf(app: FastifyInstance, tenantId: string, userId: string): Promise<string[]> {
  const resident = await app.db
    .selectFrom('residents')
    .select('home_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
  const staff = await app.db
    .selectFrom('home_staff')
    .select('home_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
  return [...new Set([...resident, ...staff].map((r) => r.home_id))];
}

/**
 * Who may see whom: oneself; a young person sees the staff of their home; staff see the
 * residents and staff of the homes they work in. Everything else, other sites included, is a 404
 * so that the answer never reveals that someone exists.
 */
export async function assertCanSee(app: FastifyInstance, auth: SignedIn, targetId: string): Promise<void> {
  if (targetId === auth.userId) return;
  const notFound = new HttpError(404, chosen.notFound);
  const viewer = await app.db
    .selectFrom('users')
    .select('user_type_id')
    .where('id', '=', auth.userId)
    .where('tenant_id', '=', auth.tenantId)
    .executeTakeFirst();
  if (!viewer) throw notFound;
  const homes = await homeIdsOf(app, auth.tenantId, auth.userId);
  if (homes.length === 0) throw notFound;

  const isStaffThere = await app.db
    .selectFrom('home_staff')
    .innerJoin('users', 'users.id', 'home_staff.user_id')
    .select('home_staff.id')
    .where('home_staff.tenant_id', '=', auth.tenantId)
    .where('home_staff.user_id', '=', targetId)
    .where('home_staff.home_id', 'in', homes)
    .where('home_staff.deleted_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (isStaffThere) return;

  const viewerIsStaff = viewer.user_type_id !== 1;
  if (viewerIsStaff) {
    const isResidentThere = await app.db
      .selectFrom('residents')
      .innerJoin('users', 'users.id', 'residents.user_id')
      .select('residents.id')
      .where('residents.tenant_id', '=', auth.tenantId)
      .where('residents.user_id', '=', targetId)
      .where('residents.home_id', 'in', homes)
      .where('residents.deleted_at', 'is', null)
      .where('users.deleted_at', 'is', null)
      .executeTakeFirst();
    if (isResidentThere) return;
  }
  throw notFound;
}
