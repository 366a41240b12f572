/**
 * What a refused entry write does to the replica (the outbox's failure path). Any refusal marks
 * the document failed with the reason, its words kept. An edit conflict (412: another device
 * changed the entry first) also parks the other device's version, from the refusal's answer, in
 * `sync_server`, unless a pull already parked one as new or newer: the device then holds both
 * versions, offline too, until the young person chooses (./edit-conflict.ts).
 */
import type { RxCollection } from 'rxdb';
import { entryMessages } from '@/contract/entries';
import { isEntryKind } from '@/contract/entry-kind';
import type { LocalRef, OutboxResult } from '../../data/outbox/types';
import { setSyncState } from '../../data/replica/local-writes';
import { whenReplicaOpen } from '../../data/replica/replica-store';
import { SYNCED, syncFields, type SyncState } from '../../data/replica/types';
import { isConflictRefusal } from './conflict-state';
import { serverDocOf, type Doc } from './server-copy';

type Parked = Doc & { updated_at?: string; sync_base?: boolean; _deleted?: boolean };

export async function settleRefused(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  if (sync.state !== 'failed' || !isEntryKind(local.collection) || !result?.data || !isConflictRefusal(result.errors)) {
    await setSyncState(local.collection, local.id, sync);
    return;
  }
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const doc = await target.findOne(local.id).exec();
  if (!doc) return;
  const server = serverDocOf(local, doc.toMutableJSON() as Doc, result.data);
  if (!server) {
    await setSyncState(local.collection, local.id, sync);
    return;
  }
  // Parked as a pull parks a server copy.
  const other: Parked = { ...server, ...syncFields(SYNCED), id: local.id, _deleted: false };
  const refusal = { ...sync, message: entryMessages.editConflict };
  await doc.incrementalModify((latest) => {
    const parked = (latest.sync_server as Parked | null | undefined) ?? null;
    const keep = parked && parked.sync_base !== true && parked._deleted !== true && String(parked.updated_at ?? '') >= String(other.updated_at);
    const copy = keep ? parked : other;
    return {
      ...latest,
      ...syncFields(refusal),
      // What only the server changes comes with it at once, as a pull's `serverFields` would.
      locked_at: copy.locked_at ?? null,
      comments_count: copy.comments_count ?? latest.comments_count,
      sync_server: copy,
    };
  });
}
