import { withdrawUnsentWrite } from '@/data/outbox/outbox';
import { removeEmptied } from '@/data/replica/remove-emptied';
import { replicaForWrite } from '@/entries/data/replica-for-write';

/**
 * "Remove" on a refused (or not sent) swap of this device: its request leaves the outbox and its
 * history item leaves the replica, emptied (a failed row is never the sweep's to blank). Nothing was
 * taken, so nothing moves on the balance. false: it is not a refused swap of this device (anything
 * else is the server's history, which stays).
 */
export async function removeExchange(id: string): Promise<boolean> {
  const open = await replicaForWrite();
  if (!open) return false;
  const doc = await open.db.points.findOne(id).exec();
  const item = doc?.toJSON() as { kind?: string; local_only?: boolean; sync_state?: string; sync_outbox_id?: string | null } | undefined;
  if (!doc || item?.kind !== 'exchange' || !item.local_only || item.sync_state !== 'failed') return false;
  if (item.sync_outbox_id) await withdrawUnsentWrite(item.sync_outbox_id);
  await removeEmptied(doc);
  return true;
}
