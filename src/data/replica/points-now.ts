/**
 * The points summary as the screens show it at this moment (usePoints' rules, read once): what
 * an action checks before spending, so it never queues a swap the balance shown cannot afford.
 */
import { firstValueFrom } from 'rxjs';
import type { OpenReplica } from './replica-store';
import { pointsSources$, pointsSummary, type PointsSummary } from './task-overlays';
import { ACCOUNT_DOC_ID, type AccountDoc, type ResidentDoc } from './types';

/** The resident's reward_points (the replicated record, else the account kept in the replica). */
async function fallbackPoints(open: OpenReplica): Promise<number | null> {
  const residentId = open.identity.residentId;
  const details = residentId ? ((await open.db.resident.findOne(residentId).exec())?.toJSON() as ResidentDoc | undefined) : undefined;
  if (details?.kind === 'details' && typeof details.reward_points === 'number') return details.reward_points;
  const account = (await open.db.resident.findOne(ACCOUNT_DOC_ID).exec())?.toJSON() as AccountDoc | undefined;
  const user = account?.account.user;
  return user?.first_name && user.resident ? user.resident.reward_points : null;
}

export async function pointsNow(open: OpenReplica): Promise<PointsSummary | null> {
  const [sources, fallback] = await Promise.all([firstValueFrom(pointsSources$(open.db)), fallbackPoints(open)]);
  return pointsSummary(sources.ledger, sources.overlays, fallback, sources.exchanges);
}
