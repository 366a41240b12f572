/**
 * The young person's own comment and review writes on objectives are overlay documents in `tasks`
 * (kind `comment`) on top of the pulled task logs (kind `log`). This module holds the rules that
 * say what a person sees, shared by the thread screen and the points counter:
 *
 * - The thread is the log's comments merged with its overlays by id, newest first (SPEC §4: a new
 *   comment goes to the front). An overlay that is pending or failed wins over the server's copy of
 *   the same id. A synced overlay (delivered, the server's answer settled into it) is shown only
 *   while the log's copy is older than it: every comment write moves the log's `updated_at` in the
 *   same transaction, so a log at least as new as the comment already carries it (or no longer
 *   has it). One id is one row: a comment is never shown twice.
 * - A review earns rules.reviewLogRewardPoints once it is in the ledger (`task_log_review`, source id = the log's
 *   id). Until then a pending or delivered review of this device counts as pending points; a failed
 *   one does not (it was refused).
 * - Synced overlays that the log and the ledger have caught up with are deleted after each pull of
 *   the tasks or the points (`pruneTaskOverlays`), emptied in the same write (./remove-emptied.ts):
 *   the words are the log's now, and a points pull asks for no sweep to blank them.
 * - The balance also takes into account the reward exchanges the ledger does not hold yet
 *   (./rewards.ts `exchangeAdjustment`); `spending` is what this device's swaps still waiting to be
 *   sent set aside.
 */
import { combineLatest, map, type Observable } from 'rxjs';
import { rules } from '@/contract/rules';
import type { TaskComment } from '@/contract/tasks';
import { removeEmptied } from './remove-emptied';
import type { ReplicaDatabase } from './replica-store';
import { exchangeAdjustment, rewardSources$, waitingExchanges, type ExchangePart } from './rewards';
import type { PointsDoc, RewardExchangeDoc, SyncStateName, TaskCommentOverlayDoc, TaskLogDoc } from './types';

/** The ledger reason of a review's points (server/domain/tasks/points.ts). */
export const REVIEW_REASON = 'task_log_review';

/** One comment as the thread shows it: the server's, or this device's own write. */
export type ThreadComment = Omit<TaskComment, 'deleted_at'> & {
  readonly sync_state: SyncStateName;
  readonly sync_message: string | null;
  /** The server has not created it yet. */
  readonly local_only: boolean;
};

const fromServer = (comment: Omit<TaskComment, 'deleted_at'>): ThreadComment => ({
  ...comment,
  sync_state: 'synced',
  sync_message: null,
  local_only: false,
});

function fromOverlay(overlay: TaskCommentOverlayDoc): ThreadComment {
  return {
    id: overlay.id,
    updated_at: overlay.updated_at,
    task_log_id: overlay.task_log_id,
    comment: overlay.comment,
    is_review: overlay.is_review,
    created_at: overlay.created_at,
    edited_at: overlay.edited_at,
    creator: overlay.creator,
    files: overlay.files,
    sync_state: overlay.sync_state,
    sync_message: overlay.sync_message,
    local_only: overlay.local_only,
  };
}

/** Whether an overlay still has something to show over this copy of its log. */
export function overlayShows(overlay: TaskCommentOverlayDoc, log: Pick<TaskLogDoc, 'updated_at'> | null | undefined): boolean {
  if (overlay.sync_state !== 'synced') return true;
  return !log || log.updated_at < overlay.updated_at;
}

const newestFirst = (a: ThreadComment, b: ThreadComment): number => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/** A log's thread: its comments and this device's overlays of it, by id, newest first. */
export function threadOf(log: Pick<TaskLogDoc, 'id' | 'updated_at' | 'comments'> | null, overlays: readonly TaskCommentOverlayDoc[]): ThreadComment[] {
  const byId = new Map<string, ThreadComment>();
  for (const comment of log?.comments ?? []) byId.set(comment.id, fromServer(comment));
  for (const overlay of overlays) {
    if (log && overlay.task_log_id !== log.id) continue;
    if (overlayShows(overlay, log)) byId.set(overlay.id, fromOverlay(overlay));
  }
  return [...byId.values()].sort(newestFirst);
}

/** The ledger holds the review points of this log. */
export const reviewPointsIn = (ledger: readonly Pick<PointsDoc, 'reason' | 'source_id'>[], logId: string): boolean =>
  ledger.some((entry) => entry.reason === REVIEW_REASON && entry.source_id === logId);

/** The logs this device reviewed whose points are not in the ledger yet (refused reviews excluded). */
export function unconfirmedReviews(
  overlays: readonly Pick<TaskCommentOverlayDoc, 'is_review' | 'sync_state' | 'task_log_id'>[],
  ledger: readonly Pick<PointsDoc, 'reason' | 'source_id'>[],
  states: readonly SyncStateName[] = ['pending', 'synced'],
): string[] {
  const logs = new Set<string>();
  for (const overlay of overlays) {
    if (!overlay.is_review || !states.includes(overlay.sync_state)) continue;
    if (!reviewPointsIn(ledger, overlay.task_log_id)) logs.add(overlay.task_log_id);
  }
  return [...logs];
}

export interface PointsSummary {
  /**
   * The points the young person has now: the ledger's sum (never below zero), less the exchanges the
   * ledger does not hold yet (queued on this device, or delivered and not pulled since), plus
   * refunds of denied exchanges the ledger does not hold yet (./rewards.ts `exchangeAdjustment`).
   */
  readonly balance: number;
  /** Points of this device's reviews that are not in the ledger yet (on their way). */
  readonly pending: number;
  /** Points of this device's exchanges still waiting to be sent (already taken off `balance`). */
  readonly spending: number;
}

/**
 * Balance, pending and spending points. With an empty ledger (its first pull has not finished) the
 * balance is `fallback` (the resident's reward_points, which already has every delivered exchange
 * and refund in it) less the exchanges still waiting to be sent, and only reviews still waiting to
 * be sent count as pending: a delivered one may already be in that number.
 */
export function pointsSummary(
  ledger: readonly Pick<PointsDoc, 'delta' | 'reason' | 'source_id'>[],
  overlays: readonly Pick<TaskCommentOverlayDoc, 'is_review' | 'sync_state' | 'task_log_id'>[],
  fallback: number | null,
  exchanges: readonly ExchangePart[] = [],
): PointsSummary | null {
  const waiting = waitingExchanges(exchanges, ledger);
  const spending = waiting.reduce((sum, exchange) => sum + exchange.points, 0);
  if (ledger.length === 0) {
    if (fallback === null) return null;
    return { balance: Math.max(0, fallback - spending), pending: rules.reviewLogRewardPoints * unconfirmedReviews(overlays, ledger, ['pending']).length, spending };
  }
  const sum = ledger.reduce((total, entry) => total + entry.delta, 0);
  const adjusted = exchanges.reduce((total, exchange) => total + exchangeAdjustment(exchange, ledger), sum);
  return { balance: Math.max(0, adjusted), pending: rules.reviewLogRewardPoints * unconfirmedReviews(overlays, ledger).length, spending };
}

/**
 * Deletes synced overlays the replica no longer needs: the log's copy has caught up with them (or
 * the log is gone), and for a review the ledger holds its points. Pending and failed ones stay.
 */
export async function pruneTaskOverlays(db: ReplicaDatabase): Promise<void> {
  if (db.closed) return;
  const overlays = (await db.tasks.find({ selector: { kind: 'comment' } }).exec()).map((doc) => doc.toJSON() as unknown as TaskCommentOverlayDoc);
  const settled = overlays.filter((overlay) => overlay.sync_state === 'synced');
  if (settled.length === 0) return;
  const logIds = [...new Set(settled.map((overlay) => overlay.task_log_id))];
  const logs = new Map(
    [...(await db.tasks.findByIds(logIds).exec()).values()].map((doc) => {
      const log = doc.toJSON() as unknown as TaskLogDoc;
      return [log.id, log] as const;
    }),
  );
  const ledger = settled.some((overlay) => overlay.is_review)
    ? (await db.points.find({ selector: { kind: 'ledger' } }).exec()).map((doc) => doc.toJSON() as unknown as PointsDoc)
    : [];
  const done = settled.filter((overlay) => {
    const log = logs.get(overlay.task_log_id);
    if (log && overlayShows(overlay, log)) return false;
    return !overlay.is_review || !log || reviewPointsIn(ledger, overlay.task_log_id);
  });
  if (done.length === 0) return;
  // Removed only if unchanged since read (a new write to one makes it pending again).
  for (const overlay of done) {
    const doc = await db.tasks.findOne(overlay.id).exec();
    const now = doc?.toJSON() as unknown as TaskCommentOverlayDoc | undefined;
    if (doc && now?.sync_state === 'synced' && now.updated_at === overlay.updated_at) await removeEmptied(doc);
  }
}

const plainAll = <T>(docs: readonly { toJSON(): unknown }[]): T[] => docs.map((doc) => doc.toJSON() as T);

/** This device's overlays (all logs, or one log's). */
export function taskOverlays$(db: ReplicaDatabase, logId?: string): Observable<TaskCommentOverlayDoc[]> {
  return db.tasks
    .find({ selector: { kind: 'comment', ...(logId ? { task_log_id: logId } : {}) } })
    .$.pipe(map((docs) => plainAll<TaskCommentOverlayDoc>(docs)));
}

export interface TaskLogView {
  /** The log (null: not in the replica). */
  readonly log: TaskLogDoc | null;
  /** This device's overlays of it (all states). */
  readonly overlays: TaskCommentOverlayDoc[];
  /** What the thread shows (threadOf). */
  readonly thread: ThreadComment[];
}

/** One log with its overlays and its merged thread, live. */
export function taskLogView$(db: ReplicaDatabase, logId: string): Observable<TaskLogView> {
  const log$ = db.tasks.findOne(logId).$.pipe(
    map((doc) => {
      const plain = doc ? (doc.toJSON() as unknown as TaskLogDoc) : null;
      return plain?.kind === 'log' ? plain : null;
    }),
  );
  return combineLatest([log$, taskOverlays$(db, logId)]).pipe(map(([log, overlays]) => ({ log, overlays, thread: threadOf(log, overlays) })));
}

/** The ledger, this device's overlays and the reward exchanges, live: what the points counter is made of. */
export function pointsSources$(
  db: ReplicaDatabase,
): Observable<{ ledger: PointsDoc[]; overlays: TaskCommentOverlayDoc[]; exchanges: RewardExchangeDoc[] }> {
  return combineLatest([rewardSources$(db), taskOverlays$(db)]).pipe(map(([{ ledger, exchanges }, overlays]) => ({ ledger, overlays, exchanges })));
}
