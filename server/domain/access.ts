import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { chosenMessages as chosen } from '../../src/contract/messages';
import type { Database } from '../db/schema';
import { HttpError } from '../lib/http-errors';
import type { Audience } from '../lib/notifier';
import { YOUNG_PERSON_TYPE_ID, type SignedIn } from '../plugins/session';

/**
 * The one access rule: who may read or answer what. Every route, the change stream and the
 * replication of revocations ask here, so that no two places can disagree.
 */

/**
 * Who may read an entry (and its comments and files), docs/api.md:
 * - the young person the entry belongs to (entry.resident_id is theirs), whoever created it;
 * - staff of that young person's home (home_staff, not deleted) when the entry is shared with them
 *   (their user id in shared_with) or shared with management and they are a manager.
 * Anyone else, other tenants included, gets 404: an answer never says that an entry exists.
 * Only the young person who created an entry may change it.
 */

/** Condition on an entry alias (`entry`): the signed-in person may read it. */
export function entryReadable(auth: Pick<SignedIn, 'tenantId' | 'userId'>, alias = 'entry'): Expression<SqlBool> {
  const e = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`${e('resident_id')} in (
    select r.id from residents r
    where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and (
      r.user_id = ${auth.userId}
      or (
        r.home_id in (select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null)
        and (
          cast(${auth.userId} as uuid) = any(${e('shared_with')})
          or (${e('shared_with_management')} and exists (
            select 1 from users u join user_types ut on ut.id = u.user_type_id
            where u.id = ${auth.userId} and ut.system_name = 'manager'))
        )
      )
    )
  )`;
}

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

/**
 * The signed-in person's own live resident record: a young person's (one at most); staff have none.
 * The one place that says which row that is; callers add the columns they need (`.select`), a
 * transaction passes itself as `db`. Columns are qualified so that a caller may join.
 */
export function ownResidentRow(db: Kysely<Database>, auth: Pick<SignedIn, 'tenantId' | 'userId'>) {
  return db
    .selectFrom('residents')
    .where('residents.tenant_id', '=', auth.tenantId)
    .where('residents.user_id', '=', auth.userId)
    .where('residents.deleted_at', 'is', null);
}

/** The signed-in person's own live resident record's id (a young person's), or null (staff). */
export async function ownResidentId(app: FastifyInstance, auth: Pick<SignedIn, 'tenantId' | 'userId'>): Promise<string | null> {
  const own = await ownResidentRow(app.db, auth).select('residents.id').executeTakeFirst();
  return own?.id ?? null;
}

/**
 * Who may read an objective (a task, its logs, their comments and files), docs/api.md: the young
 * person it belongs to, and the staff of that young person's home (home_staff, not deleted; key
 * workers set objectives, so nothing is "shared" one by one). Anyone else, another young person,
 * another home, another site, gets 404. Condition on a tasks alias (`task`).
 */
export function taskReadable(auth: SignedIn, alias = 'task'): Expression<SqlBool> {
  return residentRowReadable(auth, alias);
}

/**
 * Condition on any alias with a `resident_id`: the row belongs to the signed-in young person, or
 * to a young person of a home where the signed-in person is staff (reachableResident as SQL).
 * Objectives (taskReadable) and reward exchanges are read under it.
 */
export function residentRowReadable(auth: SignedIn, alias: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.resident_id`)} in (
    select r.id from residents r
    where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and (
      r.user_id = ${auth.userId}
      or r.home_id in (select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null)
    )
  )`;
}

/**
 * Rewards (issue 10), docs/api.md:
 * - a home's catalogue is read by its young people (their own home's, through their resident id)
 *   and its staff (any resident of the home); see reachableResident;
 * - exchanges are the young person's own; staff of their home read them too (residentRowReadable)
 *   and only staff of the home decide them (staffReachableResident: the young person 403, others 404);
 * - only staff of the home manage its catalogue (staffHome);
 * - a reward's picture (condition on a rewards alias, `reward`): staff of its home; a young person
 *   of its home while the reward is live and active; a young person who has an exchange of it,
 *   whatever became of the reward since (their history shows it). Anyone else: 404.
 */
export function rewardImageReadable(auth: SignedIn, alias = 'reward'): Expression<SqlBool> {
  const r = (column: string) => sql.ref(`${alias}.${column}`);
  return sql<SqlBool>`(
    ${r('home_id')} in (select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null)
    or (${r('deleted_at')} is null and ${r('active')} and ${r('home_id')} in (
      select r.home_id from residents r where r.tenant_id = ${auth.tenantId} and r.user_id = ${auth.userId} and r.deleted_at is null))
    or exists (
      select 1 from reward_exchanges ex join residents r on r.id = ex.resident_id
      where ex.reward_id = ${r('id')} and r.tenant_id = ${auth.tenantId} and r.user_id = ${auth.userId} and r.deleted_at is null)
  )`;
}

/**
 * A home whose catalogue the signed-in person may manage: one where they are staff. A young
 * person of that home gets 403 (as staffReachableResident); any other home, other sites included, 404.
 */
export async function staffHome(app: FastifyInstance, auth: SignedIn, homeId: string): Promise<string> {
  if (await staffHomes(app, auth).where('home_staff.home_id', '=', homeId).executeTakeFirst()) return homeId;
  const livesThere = await ownResidentRow(app.db, auth).select('residents.id').where('residents.home_id', '=', homeId).executeTakeFirst();
  throw livesThere ? new HttpError(403, chosen.forbidden) : new HttpError(404, chosen.notFound);
}

/**
 * A resident that a member of staff may set objectives for: one in a home they work in. The young
 * person themselves (and anyone else who can reach the record but is not staff) is refused with 403;
 * a resident they cannot reach at all is a 404, as everywhere.
 */
export async function staffReachableResident(app: FastifyInstance, auth: SignedIn, residentId: string): Promise<ReachableResident> {
  const resident = await reachableResident(app, auth, residentId);
  if (resident.isSelf || !(await staffHomes(app, auth).where('home_staff.home_id', '=', resident.home_id).executeTakeFirst())) {
    throw new HttpError(403, chosen.forbidden);
  }
  return resident;
}

/**
 * Who may read a document (issue 11; its list row, blobs, and the form it carries), docs/api.md:
 * - shared with one young person (resident_id): that young person, and the staff of the home they
 *   live in now (home_staff, not deleted), like objectives;
 * - shared with a home (home_id): the young people living there now and its staff.
 * Anyone else, another young person, another home, another site, gets 404. Withdrawn documents
 * (deleted_at) are decided by the caller. The triggers of migration 0007 (document_readers) record
 * when this answer changes for someone, so their replica gets the row or a tombstone; they mirror
 * this rule, and tests/server/documents-access.test.ts checks the two agree.
 * Condition on a documents alias (`doc`).
 */
export function documentReadable(auth: SignedIn, alias = 'doc'): Expression<SqlBool> {
  const d = (column: string) => sql.ref(`${alias}.${column}`);
  const staffHomeIds = sql`select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null`;
  return sql<SqlBool>`(${d('tenant_id')} = ${auth.tenantId} and (
    ${d('resident_id')} in (
      select r.id from residents r
      where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and (r.user_id = ${auth.userId} or r.home_id in (${staffHomeIds}))
    )
    or ${d('home_id')} in (select r.home_id from residents r where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and r.user_id = ${auth.userId})
    or ${d('home_id')} in (${staffHomeIds})
  ))`;
}

/**
 * Who may read a young person's submission of a form document (its answers and file answers): the
 * young person who sent it, and the staff of the home they live in now, while they may read the
 * document itself (documentReadable on `docAlias`). Another young person of the same home (a
 * home-wide form) never does. Condition on a document_submissions alias (`sub`).
 */
export function documentSubmissionReadable(auth: SignedIn, alias = 'sub', docAlias = 'doc'): Expression<SqlBool> {
  return sql<SqlBool>`(${documentReadable(auth, docAlias)} and ${sql.ref(`${alias}.resident_id`)} in (
    select r.id from residents r
    where r.tenant_id = ${auth.tenantId} and r.deleted_at is null and (
      r.user_id = ${auth.userId}
      or r.home_id in (select hs.home_id from home_staff hs where hs.tenant_id = ${auth.tenantId} and hs.user_id = ${auth.userId} and hs.deleted_at is null)
    )
  ))`;
}

/**
 * A home a member of staff may share documents with: one they work in. A young person who lives
 * there is refused with 403 (they can reach it, but sharing is for staff); any other home is a 404.
 * The same rule as a home whose catalogue they manage (staffHome).
 */
export const staffReachableHome = staffHome;

/**
 * Who may read which forms (templates of objectives and form documents), docs/decisions.md: staff of any
 * home of the site read all its forms (they set objectives and share form documents from them);
 * anyone else, a young person, only the forms they are given (domain/tasks/forms.ts givenForms).
 */
export async function readsEveryForm(app: FastifyInstance, auth: SignedIn): Promise<boolean> {
  return (await staffHomes(app, auth).executeTakeFirst()) !== undefined;
}

/** Whether the signed-in person is staff of this home (documents: who may change what a home was given). */
export async function isStaffOf(app: FastifyInstance, auth: SignedIn, homeId: string): Promise<boolean> {
  return (await staffHomes(app, auth).where('home_staff.home_id', '=', homeId).executeTakeFirst()) !== undefined;
}

/** Subquery: ids of the homes where the signed-in person is staff. */
function staffHomes(app: FastifyInstance, auth: SignedIn) {
  return app.db
    .selectFrom('home_staff')
    .select('home_staff.home_id')
    .where('home_staff.tenant_id', '=', auth.tenantId)
    .where('home_staff.user_id', '=', auth.userId)
    .where('home_staff.deleted_at', 'is', null);
}


/** The signed-in person as an event-stream audience (lib/notifier.ts). */
export async function audienceOf(app: FastifyInstance, auth: SignedIn): Promise<Audience> {
  const own = await ownResidentRow(app.db, auth).select(['residents.id', 'residents.home_id']).executeTakeFirst();
  const staff = (await staffHomes(app, auth).execute()).map((r) => r.home_id);
  const type = await app.db
    .selectFrom('users')
    .innerJoin('user_types', 'user_types.id', 'users.user_type_id')
    .select('user_types.system_name')
    .where('users.id', '=', auth.userId)
    .executeTakeFirst();
  return {
    userId: auth.userId,
    isManager: type?.system_name === 'manager',
    residentId: own?.id ?? null,
    homeIds: [...new Set([...(own ? [own.home_id] : []), ...staff])],
    staffHomeIds: staff,
  };
}


/** Ids of the homes a person belongs to: a young person's home, or the homes a carer works in. */
export async function homeIdsOf(app: FastifyInstance, tenantId: string, userId: string): Promise<string[]> {
  const resident = await ownResidentRow(app.db, { tenantId, userId }).select('residents.home_id').execute();
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

  const viewerIsStaff = viewer.user_type_id !== YOUNG_PERSON_TYPE_ID;
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
