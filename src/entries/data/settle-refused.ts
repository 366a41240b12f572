/**
 * What a refused entry write does to the replica (the outbox's failure path). Any refusal marks
 * the document failed with the reason, its words kept. An edit conflict (412: another device
 * changed the entry first) also parks the other device's version, from the refusal's answer, in
 * `sync_server`, unless a pull already parked one as new or newer: the device then holds both
 * versions, offline too, until the young person chooses (./edit-conflict.ts).
 *
 * A refusal with field errors (422) keeps them for the entry's form (./refused-fields.ts), which
 * shows each beside its field. The document's message is what has no field there: the server's
 * own words, an error the form has no field for, or else SPEC §8's "There was an error posting /
 * updating your entry", so the same words are not said twice.
 */
import type { RxCollection } from 'rxdb';
import { entryMessages } from '@/contract/entries';
import { isEntryKind, type EntryKind } from '@/contract/entry-kind';
import type { LocalRef, OutboxResult } from '../../data/outbox/types';
import { setSyncState } from '../../data/replica/local-writes';
import { whenReplicaOpen } from '../../data/replica/replica-store';
import { SYNCED, syncFields, type SyncState } from '../../data/replica/types';
import { isConflictRefusal } from './conflict-state';
import { errorsWithoutField, fieldOf, type FieldErrorList } from './entry-fields';
import { forgetRefusedFields, keepRefusedFields } from './refused-fields';
import { serverDocOf, type Doc } from './server-copy';

type Parked = Doc & { updated_at?: string; sync_base?: boolean; _deleted?: boolean };

export async function settleRefused(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  if (sync.state === 'failed' && isEntryKind(local.collection) && !isConflictRefusal(result?.errors)) {
    await settleFieldRefusal(local.collection, local.id, sync, result?.errors ?? {});
    return;
  }
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

async function settleFieldRefusal(kind: EntryKind, id: string, sync: SyncState, errors: FieldErrorList): Promise<void> {
  const { db } = await whenReplicaOpen();
  const beside = Object.entries(errors).flatMap(([key, list]) => (fieldOf(kind, key) ? list : []));
  const saidBeside = beside.length > 0 && sync.outbox_id !== null;
  let message = sync.message;
  if (saidBeside && beside.includes(message ?? '')) {
    const doc = await db[kind].findOne(id).exec();
    const created = (doc?.toJSON() as { local_only?: boolean } | undefined)?.local_only === true;
    message = errorsWithoutField(kind, errors)[0] ?? (created ? entryMessages.postFailed : entryMessages.updateFailed);
  }
  // The errors first: a form or list that sees the entry failed finds its field errors already there.
  if (saidBeside) await keepRefusedFields(db, kind, id, sync.outbox_id!, errors);
  else await forgetRefusedFields(db, kind, id);
  await setSyncState(kind, id, { ...sync, message });
}
