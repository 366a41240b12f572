import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { StaffChange } from '../../../src/contract/audit';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { HOME_REQUIRED, residentHomeUpdateSchema, type ResidentDetails } from '../../../src/contract/residents';
import { HttpError } from '../../lib/http-errors';
import { laterStamp } from '../../lib/timestamps';
import { parse } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { staffReachableResident } from '../access';
import { loadResidentDetails } from './details';

/**
 * A young person moves to another home of the site (docs/decisions.md "A young person moves home"):
 * staff of their home move them (the young person 403, anyone else 404 as staffReachableResident);
 * a home that is not one of the site's is a field error. Moving changes only `residents.home_id`:
 * the database's triggers record the move (resident_home_stays, document_access_changes), so every
 * list of per-home rows sends the young person the new home's rows and blank tombstones of the old
 * one. A key worker who does not work in the new home is no longer theirs. `report` hands the
 * staff audit (plugins/staff-audit.ts) the home before and after, once committed.
 */
export async function moveResident(
  app: FastifyInstance, auth: SignedIn, residentId: string, body: unknown, report: (change: StaffChange) => void,
): Promise<ResidentDetails> {
  const resident = await staffReachableResident(app, auth, residentId);
  const { home_id: homeId } = parse(residentHomeUpdateSchema, body ?? {});
  const home = await app.db
    .selectFrom('homes')
    .select('id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', homeId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!home) throw new HttpError(422, chosen.validationFailed, { home_id: [HOME_REQUIRED] });
  // The home left is read under the row's lock: the one this move replaces, even beside another move.
  const from = await app.db.transaction().execute(async (tx) => {
    const current = await tx
      .selectFrom('residents')
      .select('home_id')
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', resident.id)
      .forUpdate()
      .executeTakeFirst();
    // Only a record removed outright since the access check (a site's deletion): gone as any unknown id.
    if (!current) throw new HttpError(404, chosen.notFound);
    if (current.home_id === home.id) return current.home_id;
    await tx
      .updateTable('residents')
      .set({
        home_id: home.id,
        key_worker_id: sql<string | null>`case when exists (
          select 1 from home_staff hs where hs.home_id = ${home.id} and hs.user_id = residents.key_worker_id and hs.deleted_at is null
        ) then residents.key_worker_id end`,
        updated_at: laterStamp('residents.updated_at'),
      })
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', resident.id)
      .execute();
    return current.home_id;
  });
  report({ home: { from, to: home.id } });
  if (from !== home.id) {
    // The young person, and the staff of both homes (whose lists of young people and their documents change).
    const topics = ['resident', 'associated_users', 'rota', 'rewards', 'documents', 'tasks'] as const;
    for (const at of [from, home.id]) app.notifier.publish({ tenantId: auth.tenantId, homeId: at, residentId: resident.id }, [...topics]);
    // An open event stream keeps the audience it opened with (routes/sync/stream.ts): the young
    // person's streams end, and reopen (the session stays) as someone of the new home.
    app.notifier.endSessions({ tenantId: auth.tenantId, userId: resident.user_id });
  }
  return loadResidentDetails(app, auth.tenantId, resident.id);
}
