import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { chosenMessages as chosen } from '../../../src/contract/messages';
import { changedPushMessage, pushUrls } from '../../../src/contract/push';
import {
  rewardDecisionSchema, rewardExchangeRequestSchema, rewardMessages, type RewardExchange, type RewardExchangeStatus,
} from '../../../src/contract/rewards';
import type { FieldErrors } from '../../../src/contract/envelope';
import type { Database } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import { syncSelect, type ListSpec } from '../../lib/list-query';
import { isoMicros, isoMicrosOrNull } from '../../lib/timestamps';
import { uuidv7 } from '../../lib/uuidv7';
import { parse } from '../../lib/validate';
import type { SignedIn } from '../../plugins/session';
import { reachableResident, residentRowReadable, staffReachableResident } from '../access';
import { clientIdOf, createdBefore, idTakenError, isUniqueViolation } from '../entries/writes';
import { filesOf } from '../entries/present';
import { uploadedFiles } from '../uploads/form-fields';
import { appendPoints } from '../tasks/points';

/**
 * Reward exchanges (issue 10): a young person swaps points for a reward of their home; staff of
 * the home approve it (the points stay spent) or deny it (they are given back).
 *
 * The balance can never go below zero, however many exchanges arrive at once from however many
 * devices: every transaction that spends or gives back points first locks the young person's
 * resident row (select ... for update), then reads the balance, then appends to the ledger
 * (tasks/points.ts, which keeps residents.reward_points equal to the ledger's sum and refuses a
 * negative balance as a last line). The same order (resident, then exchange) everywhere, so two
 * writers never wait on each other in a circle. unique (reason, source_id) in the ledger makes the
 * spend and the refund of one exchange happen at most once each.
 */

const ex = (c: string) => sql.ref(`ex.${c}`);

/** GET .../rewards/history and the staff list: newest first; checkpoint mode walks (updated_at, id). */
export const EXCHANGE_SPEC: ListSpec = {
  fields: {
    status: { expr: ex('status'), type: 'text' },
    reward_id: { expr: ex('reward_id'), type: 'uuid' },
    resident_id: { expr: ex('resident_id'), type: 'uuid' },
    created_at: { expr: ex('created_at'), type: 'timestamp' },
    decided_at: { expr: ex('decided_at'), type: 'timestamp' },
  },
  sorts: { created_at: ex('created_at'), decided_at: ex('decided_at') },
  defaultSort: [['created_at', 'desc']],
  relations: ['reward', 'reward.image', 'decided_by'],
  updatedAt: ex('updated_at'),
  id: ex('id'),
  // An exchange is never deleted; it ends approved or denied.
  deletedAt: sql`null::timestamptz`,
};

/** Exchanges the signed-in person may read (their own; staff: those of their homes' young people). */
export function exchangesQuery(db: Kysely<Database>, auth: SignedIn) {
  return db
    .selectFrom('reward_exchanges as ex')
    .innerJoin('rewards as reward', 'reward.id', 'ex.reward_id')
    .leftJoin('users as decider', 'decider.id', 'ex.decided_by')
    .leftJoin('user_photos as decider_photo', (join) => join.onRef('decider_photo.user_id', '=', 'decider.id').on('decider_photo.deleted_at', 'is', null))
    .select([
      ...syncSelect(EXCHANGE_SPEC),
      'ex.resident_id',
      'ex.reward_id',
      'reward.name as reward_name',
      'ex.points',
      'ex.status',
      'ex.note',
      'decider.id as decider_id',
      'decider.first_name as decider_first_name',
      'decider.last_name as decider_last_name',
      sql<boolean>`decider_photo.id is not null`.as('decider_has_photo'),
      isoMicrosOrNull(ex('decided_at')).as('decided_at'),
      isoMicros(ex('created_at')).as('created_at'),
    ])
    .where('ex.tenant_id', '=', auth.tenantId)
    .where(residentRowReadable(auth, 'ex'));
}

/** Staff: the exchanges of the young people of one home (the caller checked staffHome). */
export const homeExchangesQuery = (db: Kysely<Database>, auth: SignedIn, homeId: string) =>
  exchangesQuery(db, auth).where('ex.resident_id', 'in', db.selectFrom('residents').select('residents.id').where('residents.home_id', '=', homeId));

/** One young person's history (the caller checked reachableResident). */
export const residentExchangesQuery = (db: Kysely<Database>, auth: SignedIn, residentId: string) =>
  exchangesQuery(db, auth).where('ex.resident_id', '=', residentId);

type ExchangeRow = Awaited<ReturnType<ReturnType<typeof exchangesQuery>['execute']>>[number];

export async function presentExchanges(db: Kysely<Database>, tenantId: string, rows: ExchangeRow[]): Promise<RewardExchange[]> {
  const images = await filesOf(db, tenantId, 'reward', [...new Set(rows.map((r) => r.reward_id))]);
  return rows.map((r) => ({
    id: r.id,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
    resident_id: r.resident_id,
    reward_id: r.reward_id,
    reward: { id: r.reward_id, name: r.reward_name, image: images.get(r.reward_id)!.files[0] ?? null },
    points: r.points,
    points_adjustment: r.status === 'denied' ? 0 : -r.points,
    refunded_points: r.status === 'denied' ? r.points : 0,
    status: r.status,
    note: r.note,
    decided_by: r.decider_id
      ? { id: r.decider_id, first_name: r.decider_first_name ?? '', last_name: r.decider_last_name ?? '', has_photo: r.decider_has_photo }
      : null,
    decided_at: r.decided_at,
    created_at: r.created_at,
  }));
}

/** One exchange the signed-in person may read, else 404. */
export async function showExchange(app: FastifyInstance, auth: SignedIn, id: string): Promise<RewardExchange> {
  const row = await exchangesQuery(app.db, auth).where('ex.id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, chosen.notFound);
  const [shown] = await presentExchanges(app.db, auth.tenantId, [row]);
  return shown!;
}

/** SPEC §8's refusal with a field error that says which reason it was. */
const refused = (errors: FieldErrors) => new HttpError(422, rewardMessages.redeemFailed, errors);

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});

/**
 * What an exchange needs: who, which reward, under which id. `at` (demo data only) dates the
 * exchange; its ledger entry is always dated now (the ledger records when points moved here).
 */
export interface ExchangeInput {
  tenantId: string;
  residentId: string;
  rewardId: string;
  /** The exchange's id (the client's, or made by the server). */
  id: string;
  /** The young person's user id. */
  creatorId: string;
  at?: Date;
}

/**
 * The exchange itself, on any database handle (the API and the demo seed both use it): in one
 * transaction holding the resident row's lock, the checks (flag, reward, balance: SPEC §8's 422),
 * the pending exchange at today's cost and -cost in the ledger. 'sent_again' when a row with this
 * id already exists (a copy of the same create committed first); nothing changes then.
 */
export async function exchangePoints(db: Kysely<Database>, input: ExchangeInput): Promise<'created' | 'sent_again'> {
  return db.transaction().execute(async (tx) => {
    const me = await tx
      .selectFrom('residents')
      .select(['id', 'home_id', 'reward_points', 'rewards_enabled'])
      .where('tenant_id', '=', input.tenantId)
      .where('id', '=', input.residentId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!me) throw new HttpError(404, chosen.notFound);
    if (await tx.selectFrom('reward_exchanges').select('id').where('id', '=', input.id).executeTakeFirst()) return 'sent_again' as const;
    if (me.rewards_enabled !== 1) throw refused({ rewards_enabled: [rewardMessages.rewardsOff] });
    const reward = await tx
      .selectFrom('rewards')
      .select(['id', 'points'])
      .where('tenant_id', '=', input.tenantId)
      .where('id', '=', input.rewardId)
      .where('home_id', '=', me.home_id)
      .where('deleted_at', 'is', null)
      .where('active', '=', true)
      .executeTakeFirst();
    if (!reward) throw refused({ reward_id: [rewardMessages.unavailable] });
    if (me.reward_points < reward.points) throw refused({ points: [rewardMessages.notEnoughPoints] });
    const at = input.at ? { created_at: input.at, updated_at: input.at } : {};
    await tx
      .insertInto('reward_exchanges')
      .values({ id: input.id, tenant_id: input.tenantId, resident_id: me.id, reward_id: reward.id, creator_id: input.creatorId, points: reward.points, ...at })
      .execute();
    try {
      await appendPoints(tx, { tenantId: input.tenantId, residentId: me.id, delta: -reward.points, reason: 'reward_exchange', sourceId: input.id });
    } catch (error) {
      // The ledger's own guard (never below zero): the same refusal, should the check above ever miss.
      if (error instanceof HttpError && error.statusCode === 422) throw refused({ points: [rewardMessages.notEnoughPoints] });
      throw error;
    }
    return 'created' as const;
  });
}

export interface DecisionInput {
  tenantId: string;
  residentId: string;
  exchangeId: string;
  decision: Exclude<RewardExchangeStatus, 'pending'>;
  deciderId: string;
  note: string | null;
  at?: Date;
}

/**
 * The decision itself, on any database handle: resident row locked first (the order of every
 * points write), then the exchange. A pending exchange is decided once; deny gives the points back
 * (+cost, reason reward_refund, the exchange as source) in the same transaction. The same decision
 * again changes nothing (false); the other decision is 422 `status`.
 */
export async function decidePoints(db: Kysely<Database>, input: DecisionInput): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.selectFrom('residents').select('id').where('id', '=', input.residentId).forUpdate().execute();
    const current = await tx
      .selectFrom('reward_exchanges')
      .select(['status', 'points'])
      .where('tenant_id', '=', input.tenantId)
      .where('id', '=', input.exchangeId)
      .where('resident_id', '=', input.residentId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new HttpError(404, chosen.notFound);
    if (current.status !== 'pending') {
      if (current.status === input.decision) return false;
      const message = current.status === 'approved' ? rewardMessages.alreadyApproved : rewardMessages.alreadyDenied;
      throw new HttpError(422, message, { status: [message] });
    }
    const at = input.at ?? sql<Date>`now()`;
    await tx
      .updateTable('reward_exchanges')
      .set({ status: input.decision, decided_by: input.deciderId, decided_at: at, note: input.note, updated_at: at })
      .where('id', '=', input.exchangeId)
      .execute();
    if (input.decision === 'denied') {
      await appendPoints(tx, { tenantId: input.tenantId, residentId: input.residentId, delta: current.points, reason: 'reward_refund', sourceId: input.exchangeId });
    }
    return true;
  });
}

/**
 * POST /v1/projects/residents/{id}/rewards/{rewardId}/exchange. The young person only (staff of
 * their home 403; anyone else 404). The client's `id` is checked first: this person's exchange of
 * this reward under it is this request sent again, answered as it is now (201) and nothing
 * happens; their exchange of another reward, or any other row under it, is 422 `id` (one answer
 * for both, so it tells nothing of someone else's exchange). Refusals are 422 with SPEC §8's
 * message and one field error: `rewards_enabled` (flag off), `reward_id` (not a live, active
 * reward of their home), `points` (the balance is short). Otherwise exchangePoints.
 */
export async function createExchange(app: FastifyInstance, auth: SignedIn, residentId: string, rewardId: string, request: FastifyRequest): Promise<RewardExchange> {
  const body = bodyOf(request);
  const clientId = clientIdOf(body);
  const resident = await reachableResident(app, auth, residentId);
  if (!resident.isSelf) throw new HttpError(403, rewardMessages.onlyYoungPerson);
  const again = () => (clientId ? createdBefore(app.db, auth, 'reward_exchanges', clientId, () => sameExchange(app, auth, clientId, rewardId)) : Promise.resolve(null));
  const before = await again();
  if (before) return before;
  parse(rewardExchangeRequestSchema, request.body ?? {});
  const files = uploadedFiles(request);
  if (files.length > 0) throw new HttpError(422, chosen.validationFailed, Object.fromEntries(files.map((f) => [f.field, ['This file was not expected']])));

  const id = clientId ?? uuidv7();
  let outcome: 'created' | 'sent_again';
  try {
    outcome = await exchangePoints(app.db, { tenantId: auth.tenantId, residentId: resident.id, rewardId, id, creatorId: auth.userId });
  } catch (error) {
    // Lost a race for the client id to a concurrent copy: answer as the winner's row (or 422 id).
    if (clientId && isUniqueViolation(error)) {
      const created = await again();
      if (created) return created;
    }
    throw error;
  }
  // Checked outside the transaction: on PGlite a query on app.db inside it would wait for itself.
  if (outcome === 'sent_again') {
    const created = await again();
    if (created) return created;
  }
  app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, ['reward_history', 'points', 'resident']);
  return showExchange(app, auth, id);
}

/** The young person's own exchange under a client id, when it is of this reward (a replay); another payload under the id: 422 `id`. */
async function sameExchange(app: FastifyInstance, auth: SignedIn, id: string, rewardId: string): Promise<RewardExchange> {
  const shown = await showExchange(app, auth, id);
  if (shown.reward_id !== rewardId) throw idTakenError();
  return shown;
}

/**
 * Staff: POST /v1/reward-exchanges/{id}/approve and .../deny (`{ note? }`). Staff of the young
 * person's home only (the young person 403, anyone else 404); decidePoints. The same decision sent
 * again (or concurrently) answers the exchange as it is; the young person's stream and devices are
 * told only when something changed.
 */
export async function decideExchange(app: FastifyInstance, auth: SignedIn, exchangeId: string, decision: Exclude<RewardExchangeStatus, 'pending'>, request: FastifyRequest): Promise<RewardExchange> {
  const input = parse(rewardDecisionSchema, request.body ?? {});
  const found = await app.db
    .selectFrom('reward_exchanges')
    .select(['id', 'resident_id'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', exchangeId)
    .executeTakeFirst();
  if (!found) throw new HttpError(404, chosen.notFound);
  const resident = await staffReachableResident(app, auth, found.resident_id);
  const decided = await decidePoints(app.db, {
    tenantId: auth.tenantId, residentId: resident.id, exchangeId: found.id, decision, deciderId: auth.userId, note: input.note || null,
  });
  if (decided) {
    const topics = decision === 'denied' ? (['reward_history', 'points', 'resident'] as const) : (['reward_history'] as const);
    app.notifier.publish({ tenantId: auth.tenantId, homeId: resident.home_id, residentId: resident.id }, [...topics]);
    // Rewards switched off: the push would open a screen the app blocks (the decision syncs all the same).
    if (await rewardsSwitchedOn(app, auth.tenantId, resident.id)) app.push.toUser(
      { tenantId: auth.tenantId, userId: resident.user_id },
      changedPushMessage({ collections: [...topics], url: pushUrls.rewardHistory }, app.config.productName),
    );
  }
  return showExchange(app, auth, found.id);
}

async function rewardsSwitchedOn(app: FastifyInstance, tenantId: string, residentId: string): Promise<boolean> {
  const row = await app.db.selectFrom('residents').select('rewards_enabled').where('tenant_id', '=', tenantId).where('id', '=', residentId).executeTakeFirst();
  return row?.rewards_enabled === 1;
}
