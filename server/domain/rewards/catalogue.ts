import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { rewardMessages, type Reward } from '../../../src/contract/rewards';
import { HttpError } from '../../lib/http-errors';
import type { Database } from '../../db/schema';
import { applyListQuery, syncSelect, type ListRequest, type ListSpec } from '../../lib/list-query';
import { isoMicros } from '../../lib/timestamps';
import type { SignedIn } from '../../plugins/session';
import { ownResidentId, reachableResident, rewardImageReadable, type ReachableResident } from '../access';
import { filesOf } from '../entries/present';
import { homesLivedIn, perHomeSync } from '../residents/home-stays';

/**
 * Reads of a home's rewards catalogue. The young person's view (GET /v1/projects/residents/rewards)
 * and the staff view (GET /v1/homes/{id}/rewards) are the same rows under two list specs: for the
 * young person a paused reward (active false) is as gone as a withdrawn one, so it is a tombstone
 * (deleted_at = the time it was paused) with with_trashed=1 and absent otherwise; staff see paused
 * rewards as live rows and only withdrawn ones as tombstones. The young person's tombstones carry
 * nothing but the id and the time (as documents'): a reward staff draft paused, or pause and
 * withdraw, never reaches their device with its name, words, cost or picture. Filters of their
 * catalogue apply to live rows only (a tombstone has nothing to match) and its sorts order live rows
 * only (REWARD_SPEC), so no filter or sort tells its name. A young person who moved home also gets a
 * blank tombstone for each reward of the home they left (residents/home-stays.ts).
 */
const reward = (c: string) => sql.ref(`reward.${c}`);

const base = {
  fields: {
    name: { expr: reward('name'), type: 'text' as const },
    points: { expr: reward('points'), type: 'integer' as const },
    position: { expr: reward('position'), type: 'integer' as const },
    created_at: { expr: reward('created_at'), type: 'timestamp' as const },
  },
  sorts: {
    position: [reward('position'), reward('name')],
    name: reward('name'),
    points: reward('points'),
    created_at: reward('created_at'),
  },
  defaultSort: [['position', 'asc']] as [string, 'asc' | 'desc'][],
  relations: ['image'],
  updatedAt: reward('updated_at'),
  id: reward('id'),
};

/** Paused or withdrawn: gone for the young person (on the rewards table, before readerRewards). */
const pausedOrWithdrawn = sql`coalesce(reward.deleted_at, case when reward.active then null else reward.updated_at end)`;
/** The young person's columns of readerRewards. */
const youngPersonDeletedAt = reward('sync_deleted_at');

/** A sort key of live rewards only: null for a tombstone, so tombstones order by the id that ends every sort. */
const liveOnly = (expr: Expression<unknown>) => sql`case when ${youngPersonDeletedAt} is null then ${expr} end`;

/**
 * The young person's catalogue: paused or withdrawn rewards are tombstones. Its sorts never read a
 * tombstone's hidden fields (its place among the names or costs would tell them): tombstones come
 * in one block, after the live rewards (before them when descending), by id. The replica's pull
 * walks (updated_at, id), which a tombstone shows.
 */
export const REWARD_SPEC: ListSpec = {
  ...base,
  sorts: Object.fromEntries(Object.entries(base.sorts).map(([name, expr]) => [name, Array.isArray(expr) ? expr.map(liveOnly) : liveOnly(expr as Expression<unknown>)])),
  updatedAt: reward('sync_updated_at'),
  deletedAt: youngPersonDeletedAt,
};

/** Staff: every reward of the home; only withdrawn ones are tombstones. */
export const STAFF_REWARD_SPEC: ListSpec = {
  ...base,
  fields: { ...base.fields, active: { expr: reward('active'), type: 'boolean' } },
  deletedAt: reward('deleted_at'),
};

const rewardColumns = ['reward.home_id', 'reward.name', 'reward.description', 'reward.points', 'reward.active', 'reward.position'] as const;

/** The rewards of one home as staff see them (tombstones included: the spec's deletedAt and with_trashed decide). */
export function homeRewardsQuery(db: Kysely<Database>, tenantId: string, homeId: string, spec: ListSpec) {
  return db
    .selectFrom('rewards as reward')
    .select([...syncSelect(spec), ...rewardColumns, isoMicros(reward('created_at')).as('created_at')])
    .where('reward.tenant_id', '=', tenantId)
    .where('reward.home_id', '=', homeId);
}

export type RewardRow = Awaited<ReturnType<ReturnType<typeof homeRewardsQuery>['execute']>>[number];

/**
 * The catalogue rows of a young person's view, with REWARD_SPEC's replication columns: their home's
 * rewards and, `withLeft` (the young person themselves), those of the homes they left (home-stays.ts).
 */
function readerRewards(db: Kysely<Database>, tenantId: string, residentId: string, withLeft: boolean) {
  const sync = perHomeSync('lived', { updatedAt: reward('updated_at'), deletedAt: pausedOrWithdrawn, createdAt: reward('created_at') });
  return db
    .selectFrom('rewards as reward')
    .innerJoin(homesLivedIn(db, tenantId, residentId, withLeft).as('lived'), 'lived.home_id', 'reward.home_id')
    .select(['reward.id', ...rewardColumns, 'reward.created_at', sync.updatedAt.as('sync_updated_at'), sync.deletedAt.as('sync_deleted_at')])
    .where('reward.tenant_id', '=', tenantId)
    .where(sync.known);
}

/**
 * The young person's catalogue (GET /v1/projects/residents/rewards) as `resident` sees it (`self`:
 * the young person themselves): filters match live rewards only; tombstones always come (with_trashed=1).
 */
export function catalogueQuery(db: Kysely<Database>, tenantId: string, resident: { id: string; isSelf: boolean }, list: ListRequest) {
  let rows = db
    .selectFrom(readerRewards(db, tenantId, resident.id, resident.isSelf).as('reward'))
    .select([...syncSelect(REWARD_SPEC), ...rewardColumns, isoMicros(reward('created_at')).as('created_at')]);
  if (list.where.length > 0) rows = rows.where(sql<SqlBool>`(${REWARD_SPEC.deletedAt} is not null or (${sql.join(list.where, sql` and `)}))`);
  return applyListQuery(rows, { ...list, where: [] }, REWARD_SPEC);
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';

/** A tombstone of the young person's catalogue: the id and the time; neutral placeholders where the contract wants a value. */
const tombstoneOf = (r: Pick<RewardRow, 'id' | 'updated_at' | 'deleted_at'>): Reward => ({
  id: r.id,
  updated_at: r.updated_at,
  deleted_at: r.deleted_at ?? r.updated_at,
  home_id: NIL_UUID,
  name: '',
  description: null,
  points: 0,
  image: null,
  active: false,
  position: 0,
  created_at: EPOCH,
});

/**
 * The rows as the contract's Reward, each with its live picture (one at most). `blankTombstones`
 * (the young person's catalogue): tombstones as tombstoneOf, with nothing of the reward.
 */
export async function presentRewards(db: Kysely<Database>, tenantId: string, rows: RewardRow[], options: { blankTombstones?: boolean } = {}): Promise<Reward[]> {
  const blank = (r: RewardRow) => options.blankTombstones === true && r.deleted_at !== null;
  const files = await filesOf(db, tenantId, 'reward', rows.filter((r) => !blank(r)).map((r) => r.id));
  return rows.map((r) => blank(r) ? tombstoneOf(r) : ({
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    home_id: r.home_id,
    name: r.name,
    description: r.description,
    points: r.points,
    image: files.get(r.id)!.files[0] ?? null,
    active: r.active,
    position: r.position,
    created_at: r.created_at,
  }));
}

/** One reward as staff see it (tombstone when withdrawn), or undefined. */
export async function rewardForStaff(app: FastifyInstance, tenantId: string, homeId: string, id: string): Promise<Reward | undefined> {
  const row = await homeRewardsQuery(app.db, tenantId, homeId, STAFF_REWARD_SPEC).where('reward.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const [shown] = await presentRewards(app.db, tenantId, [row]);
  return shown;
}

/** The home of a reward in this tenant (live or withdrawn), or undefined. */
export async function rewardHome(db: Kysely<Database> | Transaction<Database>, tenantId: string, id: string) {
  return db
    .selectFrom('rewards')
    .select(['id', 'home_id', sql<boolean>`deleted_at is not null`.as('withdrawn')])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** GET /v1/files/view?module=reward: the picture of a reward the signed-in person may see (access.ts). */
export async function rewardFileReadable(app: FastifyInstance, auth: SignedIn, rewardId: string): Promise<boolean> {
  const row = await app.db
    .selectFrom('rewards as reward')
    .select('reward.id')
    .where('reward.tenant_id', '=', auth.tenantId)
    .where('reward.id', '=', rewardId)
    .where(rewardImageReadable(auth))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whose catalogue GET /v1/projects/residents/rewards shows: `resident_id` (the young person's own;
 * staff: any young person of their homes; anyone else 404); left out, a young person's own.
 */
export async function catalogueResident(app: FastifyInstance, auth: SignedIn, residentId: string | undefined): Promise<ReachableResident> {
  if (residentId) return reachableResident(app, auth, residentId);
  const own = await ownResidentId(app, auth);
  if (!own) throw new HttpError(422, chosen.validationFailed, { resident_id: [rewardMessages.residentRequired] });
  return reachableResident(app, auth, own);
}
