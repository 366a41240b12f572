import { sql, type Expression, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { ReachableResident } from '../access';
import type { ListSpec } from '../../lib/list-query';
import { syncSelect } from '../../lib/list-query';
import { homesLivedIn } from './home-stays';

/**
 * GET /v1/projects/residents/{id}/associated-users: the staff of the young person's home, one row
 * per person (id = user id). A row changes when the person or their place in the home does, or when
 * the young person moved in; it is a blank tombstone (id and times) when the person leaves the home
 * or is removed. A young person who moved gets one for each member of staff of a home they left who
 * is not staff of their home now (home-stays.ts); staff reading the list do not.
 */
const s = (column: string) => sql.ref(`staff.${column}`);

export const ASSOCIATED_USER_SPEC: ListSpec = {
  fields: {
    first_name: { expr: s('first_name'), type: 'text' },
    last_name: { expr: s('last_name'), type: 'text' },
    job_title: { expr: s('job_title'), type: 'text' },
  },
  sorts: { first_name: s('first_name'), last_name: s('last_name') },
  defaultSort: [['first_name', 'asc'], ['last_name', 'asc']],
  updatedAt: s('sync_updated_at'),
  id: s('id'),
  deletedAt: s('sync_deleted_at'),
};

export function associatedUsersQuery(db: Kysely<Database>, tenantId: string, resident: ReachableResident) {
  const lived = homesLivedIn(db, tenantId, resident.id, resident.isSelf);
  const gone = sql<Date | null>`coalesce(home_staff.deleted_at, users.deleted_at)`;
  // Blank before the list's filters and sorts see it: a tombstone's name cannot be probed.
  const live = <T>(value: Expression<unknown>, blank: Expression<unknown>) => sql<T>`case when ${gone} is null then ${value} else ${blank} end`;
  const current = db
    .selectFrom('home_staff')
    .innerJoin(lived.as('lived'), 'lived.home_id', 'home_staff.home_id')
    .innerJoin('users', 'users.id', 'home_staff.user_id')
    .leftJoin('user_photos', (join) => join.onRef('user_photos.user_id', '=', 'users.id').on('user_photos.deleted_at', 'is', null))
    .select([
      'users.id',
      sql<Date>`greatest(home_staff.updated_at, users.updated_at, lived.since)`.as('sync_updated_at'),
      gone.as('sync_deleted_at'),
      live<string>(sql.ref('users.first_name'), sql`''`).as('first_name'),
      live<string>(sql.ref('users.last_name'), sql`''`).as('last_name'),
      live<string | null>(sql.ref('users.job_title'), sql`null`).as('job_title'),
      live<boolean>(sql`user_photos.id is not null`, sql`false`).as('has_photo'),
    ])
    .where('lived.left_at', 'is', null)
    .where('home_staff.tenant_id', '=', tenantId)
    .where('users.tenant_id', '=', tenantId);
  // Grouped: someone who worked in two homes left is one tombstone, at the last leaving.
  const left = db
    .selectFrom('home_staff')
    .innerJoin(lived.as('lived'), 'lived.home_id', 'home_staff.home_id')
    .select([
      'home_staff.user_id as id',
      sql<Date>`max(lived.left_at)`.as('sync_updated_at'),
      sql<Date | null>`max(lived.left_at)`.as('sync_deleted_at'),
      sql<string>`''`.as('first_name'),
      sql<string>`''`.as('last_name'),
      sql<string | null>`null`.as('job_title'),
      sql<boolean>`false`.as('has_photo'),
    ])
    .where('lived.left_at', 'is not', null)
    .where('home_staff.tenant_id', '=', tenantId)
    .whereRef('home_staff.created_at', '<', 'lived.left_at')
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('home_staff as here').select('here.id').whereRef('here.user_id', '=', 'home_staff.user_id').where('here.home_id', '=', resident.home_id))),
    )
    .groupBy('home_staff.user_id');
  return db
    .selectFrom(current.unionAll(left).as('staff'))
    .select([...syncSelect(ASSOCIATED_USER_SPEC), 'staff.first_name', 'staff.last_name', 'staff.job_title', 'staff.has_photo']);
}
