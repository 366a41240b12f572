import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Rows a young person reads because of their home (a home's rewards, its staff, its roster) after
 * they move (docs/decisions.md "A young person moves home"). Every such list joins the homes the
 * young person has lived in (resident_home_stays, migration 0013) on its rows' home:
 * - the current home's rows are live, changed at the latest of their own time and the move in, so
 *   a checkpoint taken before the move still brings them;
 * - a home left gives a tombstone, at the time of leaving, for each row that existed before the
 *   young person left (created_at earlier): rows they could already have pulled, never one made
 *   since. The caller sends such a tombstone blank (id and times only).
 */

/**
 * One row per home the young person has lived in: `since` (the current stay's start, else null) and
 * `left_at` (when they last left it; null for the current home). `withLeft` false: the current home
 * only (staff reading a young person's list learn nothing of the homes they came from). A null
 * resident (staff reading their own homes' lists) has none.
 */
export function homesLivedIn(db: Kysely<Database>, tenantId: string, residentId: string | null, withLeft: boolean) {
  return db
    .selectFrom('resident_home_stays as stay')
    .select([
      'stay.home_id',
      sql<Date | null>`max(stay.started_at) filter (where stay.ended_at is null)`.as('since'),
      sql<Date | null>`case when bool_or(stay.ended_at is null) then null else max(stay.ended_at) end`.as('left_at'),
    ])
    .where('stay.tenant_id', '=', tenantId)
    .where(sql<SqlBool>`stay.resident_id = ${residentId}`)
    .groupBy('stay.home_id')
    .$if(!withLeft, (q) => q.having(sql<SqlBool>`bool_or(stay.ended_at is null)`));
}

export interface PerHomeRow {
  updatedAt: Expression<unknown>;
  deletedAt: Expression<unknown>;
  createdAt: Expression<unknown>;
}

/**
 * The replication columns of a per-home row seen through `lived` (an alias of homesLivedIn, inner or
 * left joined: without a stay the row's own times), and `known`: the row is one the young person may
 * have: of their current home, or older than their leaving a home.
 */
export function perHomeSync(lived: string, row: PerHomeRow) {
  const left = sql.ref(`${lived}.left_at`);
  const since = sql.ref(`${lived}.since`);
  return {
    updatedAt: sql<Date>`case when ${left} is null then greatest(${row.updatedAt}, ${since}) else ${left} end`,
    deletedAt: sql<Date | null>`case when ${left} is null then ${row.deletedAt} else ${left} end`,
    known: sql<SqlBool>`(${left} is null or ${row.createdAt} < ${left})`,
  };
}
