/**
 * Rewards in the replica (issue 10): the home's catalogue is `lookups` kind `reward`; the reward
 * history is `points` kind `exchange`, beside the ledger (kind `ledger`). This module holds the
 * rules that say what a person sees, shared by the screens and the points counter:
 *
 * - The catalogue: live rewards of the home, by `position`, then name (paused and withdrawn ones
 *   arrive as tombstones and leave the replica).
 * - What an exchange does to the balance that the ledger does not say yet
 *   (`exchangeAdjustment`): the ledger is the truth for what it holds; an exchange only adds what
 *   the ledger lacks. An exchange without its `reward_exchange` entry (queued on this device, or
 *   delivered and the ledger not pulled since) takes its cost off; a denied one whose
 *   `reward_refund` has not arrived gives its cost back; a refused one (failed on this device)
 *   does nothing. So the balance never counts an exchange twice, nor misses one, whichever of the
 *   history and the ledger arrives first (server/domain/rewards/exchanges.ts writes both with the
 *   exchange as source_id).
 */
import { combineLatest, map, type Observable } from 'rxjs';
import type { Reward } from '@/contract/rewards';
import type { ReplicaDatabase } from './replica-store';
import type { LookupDoc, PointsDoc, RewardDoc, RewardExchangeDoc } from './types';

/** Ledger reasons of an exchange and of its refund (server/domain/rewards/exchanges.ts). */
export const EXCHANGE_REASON = 'reward_exchange';
export const REFUND_REASON = 'reward_refund';

/** What `lookups` keeps of a reward besides its id, kind, updated_at and name (`data`, encrypted). */
export type RewardLookupData = Pick<Reward, 'home_id' | 'description' | 'points' | 'image' | 'active' | 'position' | 'created_at'>;

/** A pulled reward as a `lookups` document (without sync fields). */
export const rewardLookupOf = (row: Reward): Record<string, unknown> => ({
  id: row.id,
  kind: 'reward',
  updated_at: row.updated_at,
  name: row.name,
  data: {
    home_id: row.home_id,
    description: row.description,
    points: row.points,
    image: row.image,
    active: row.active,
    position: row.position,
    created_at: row.created_at,
  } satisfies RewardLookupData,
});

/** A `lookups` document of kind `reward` as the screens read it. */
export function rewardOf(doc: Pick<LookupDoc, 'id' | 'updated_at' | 'name' | 'data'>): RewardDoc {
  const data = (doc.data ?? {}) as Partial<RewardLookupData>;
  return {
    id: doc.id,
    updated_at: doc.updated_at,
    name: doc.name,
    home_id: data.home_id ?? '',
    description: data.description ?? null,
    points: data.points ?? 0,
    image: data.image ?? null,
    active: data.active ?? true,
    position: data.position ?? 0,
    created_at: data.created_at ?? doc.updated_at,
  };
}

const byCatalogueOrder = (a: RewardDoc, b: RewardDoc): number =>
  a.position - b.position || a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id);

const plainAll = <T>(docs: readonly { toJSON(): unknown }[]): T[] => docs.map((doc) => doc.toJSON() as T);

/** The home's rewards, catalogue order (ordering by the encrypted name happens after decryption). */
export function rewards$(db: ReplicaDatabase): Observable<RewardDoc[]> {
  return db.lookups.find({ selector: { kind: 'reward' } }).$.pipe(map((docs) => plainAll<LookupDoc>(docs).map(rewardOf).sort(byCatalogueOrder)));
}

/** One reward (null: not in the replica: unknown, paused or withdrawn). */
export function reward$(db: ReplicaDatabase, id: string): Observable<RewardDoc | null> {
  return db.lookups.findOne(id).$.pipe(
    map((doc) => {
      const plain = doc ? (doc.toJSON() as unknown as LookupDoc) : null;
      return plain?.kind === 'reward' ? rewardOf(plain) : null;
    }),
  );
}

/** The ledger entries (kind `ledger`), live. */
export function ledger$(db: ReplicaDatabase): Observable<PointsDoc[]> {
  return db.points.find({ selector: { kind: 'ledger' } }).$.pipe(map((docs) => plainAll<PointsDoc>(docs)));
}

/** Every exchange, newest first (the history: the server's and this device's own). */
export function exchanges$(db: ReplicaDatabase): Observable<RewardExchangeDoc[]> {
  return db.points.find({ selector: { kind: 'exchange' }, sort: [{ kind: 'desc' }, { sort_key: 'desc' }] }).$.pipe(
    map((docs) => plainAll<RewardExchangeDoc>(docs).sort((a, b) => b.sort_key.localeCompare(a.sort_key) || b.id.localeCompare(a.id))),
  );
}

/** One exchange (null: not in the replica). */
export function exchange$(db: ReplicaDatabase, id: string): Observable<RewardExchangeDoc | null> {
  return db.points.findOne(id).$.pipe(
    map((doc) => {
      const plain = doc ? (doc.toJSON() as unknown as RewardExchangeDoc) : null;
      return plain?.kind === 'exchange' ? plain : null;
    }),
  );
}

type LedgerPart = Pick<PointsDoc, 'delta' | 'reason' | 'source_id'>;
export type ExchangePart = Pick<RewardExchangeDoc, 'id' | 'points' | 'status' | 'sync_state'>;

/** Which of an exchange's ledger entries the replica holds. */
function inLedger(ledger: readonly LedgerPart[], exchangeId: string): { taken: boolean; refunded: boolean } {
  let taken = false;
  let refunded = false;
  for (const entry of ledger) {
    if (entry.source_id !== exchangeId) continue;
    if (entry.reason === EXCHANGE_REASON) taken = true;
    if (entry.reason === REFUND_REASON) refunded = true;
  }
  return { taken, refunded };
}

/** What this exchange does to the balance that the ledger in the replica does not say yet. */
export function exchangeAdjustment(exchange: ExchangePart, ledger: readonly LedgerPart[]): number {
  if (exchange.sync_state === 'failed') return 0; // refused: nothing was taken
  const { taken, refunded } = inLedger(ledger, exchange.id);
  if (!taken) return exchange.status === 'denied' ? 0 : -exchange.points;
  return exchange.status === 'denied' && !refunded ? exchange.points : 0;
}

/** Exchanges this device has not delivered yet (queued, or on their way), whose cost is set aside. */
export const waitingExchanges = <T extends ExchangePart>(exchanges: readonly T[], ledger: readonly LedgerPart[]): T[] =>
  exchanges.filter((exchange) => exchange.sync_state === 'pending' && !inLedger(ledger, exchange.id).taken);

/** The ledger, this device's review overlays and the exchanges, live: what the points counter is made of. */
export function rewardSources$(db: ReplicaDatabase): Observable<{ ledger: PointsDoc[]; exchanges: RewardExchangeDoc[] }> {
  return combineLatest([ledger$(db), exchanges$(db)]).pipe(map(([ledger, exchanges]) => ({ ledger, exchanges })));
}
