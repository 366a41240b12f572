import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { PointsEntry } from '../../../src/contract/tasks';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros, laterStamp } from '../../lib/timestamps';

/**
 * The points ledger (issue 9, SPEC §9): append-only rows (resident, delta, reason, source id); the
 * balance is their sum and is kept in residents.reward_points by the same transaction that appends,
 * so the resident record (which the dashboard already replicates) always shows it. unique (reason,
 * source_id) makes each award happen once however often it is attempted; a spend that would take
 * the balance below zero is refused (and the database's check on reward_points backs that up).
 */
export interface Award {
  tenantId: string;
  residentId: string;
  delta: number;
  reason: string;
  sourceId: string;
}

/** Appends the entry unless (reason, source_id) is already there; true when it was appended. */
export async function appendPoints(tx: Transaction<Database> | Kysely<Database>, award: Award): Promise<boolean> {
  const inserted = await tx
    .insertInto('points_ledger')
    .values({ tenant_id: award.tenantId, resident_id: award.residentId, delta: award.delta, reason: award.reason, source_id: award.sourceId })
    .onConflict((oc) => oc.columns(['reason', 'source_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  const updated = await tx
    .updateTable('residents')
    .set({ reward_points: sql`reward_points + ${award.delta}`, updated_at: laterStamp('residents.updated_at') })
    .where('id', '=', award.residentId)
    .where(sql<boolean>`reward_points + ${award.delta} >= 0`)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw new HttpError(422, 'There are not enough points for that', { points: ['There are not enough points for that'] });
  return true;
}

const ref = (c: string) => sql.ref(`p.${c}`);
/** GET .../residents/{id}/points: the ledger in checkpoint mode; an entry never changes, so updated_at is created_at. */
export const POINTS_SPEC: ListSpec = {
  fields: { reason: { expr: ref('reason'), type: 'text' }, created_at: { expr: ref('created_at'), type: 'timestamp' } },
  sorts: { created_at: ref('created_at') },
  defaultSort: [['created_at', 'desc']],
  relations: [],
  updatedAt: ref('created_at'),
  id: ref('id'),
  deletedAt: sql`null::timestamptz`,
};

export function pointsQuery(app: FastifyInstance, tenantId: string, residentId: string) {
  return app.db
    .selectFrom('points_ledger as p')
    .select([...syncSelect(POINTS_SPEC), 'p.resident_id', 'p.delta', 'p.reason', 'p.source_id', isoMicros(ref('created_at')).as('created_at')])
    .where('p.tenant_id', '=', tenantId)
    .where('p.resident_id', '=', residentId);
}

export const presentPoints = (rows: Awaited<ReturnType<ReturnType<typeof pointsQuery>['execute']>>): PointsEntry[] =>
  rows.map((r) => ({ id: r.id, updated_at: r.updated_at, deleted_at: r.deleted_at, resident_id: r.resident_id, delta: r.delta, reason: r.reason, source_id: r.source_id, created_at: r.created_at }));

export async function balanceOf(app: FastifyInstance, tenantId: string, residentId: string): Promise<number> {
  const row = await app.db
    .selectFrom('residents')
    .select('reward_points')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', residentId)
    .executeTakeFirstOrThrow();
  return row.reward_points;
}
