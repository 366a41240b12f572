/**
 * The local → server id mapping of a created entry or comment.
 *
 * An optimistic document is written under a local id (the write's Idempotency-Key); the server
 * makes its own id. When the outbox reports the create delivered (2xx, the created row in `data`),
 * this swaps the optimistic document for the server's copy: the row from the answer when it reads
 * as the contract says, else the local text under the server's id (the re-sync brings the rest).
 * Pending files written on this device move to the server's file ids (matched by name and size)
 * so a photo stays viewable offline without a download.
 *
 * Idempotent: applied twice (a replay after a lost answer gets the same answer thanks to the
 * Idempotency-Key; an outcome applied again after a crash), the second run finds no local
 * document and changes nothing; a pull that brought the server's copy first is kept as it is.
 */
import type { RxCollection } from 'rxdb';
import { commentSchema } from '@/contract/comments';
import { journalEntrySchema, voiceEntrySchema, type EntryFile } from '@/contract/entries';
import type { LocalRef, OutboxResult } from '../outbox/types';
import { whenReplicaOpen, type ReplicaDatabase } from '../replica/replica-store';
import { setSyncState } from '../replica/local-writes';
import { SYNCED, syncFields, type EntryType, type FileDoc, type SyncState } from '../replica/types';
import { commentDocOf, journalDocOf, voiceDocOf } from '../replication/endpoints';
import { fileCacheKey, localFileKey, type FileModule } from './file-keys';

type Doc = Record<string, unknown> & { id: string };

function serverDocOf(local: LocalRef, localDoc: Doc, data: Record<string, unknown> | null): Doc | null {
  if (!data) return null;
  if (local.collection === 'journal') {
    const parsed = journalEntrySchema.safeParse(data);
    return parsed.success ? (journalDocOf(parsed.data) as Doc) : null;
  }
  if (local.collection === 'voice') {
    const parsed = voiceEntrySchema.safeParse(data);
    return parsed.success ? (voiceDocOf(parsed.data) as Doc) : null;
  }
  if (local.collection === 'comments') {
    const parsed = commentSchema.safeParse(data);
    return parsed.success ? (commentDocOf(localDoc.entry_type as EntryType, parsed.data) as Doc) : null;
  }
  return null;
}

const moduleOf = (local: LocalRef): FileModule => (local.collection === 'comments' ? 'comment' : (local.collection as 'journal' | 'voice'));

function filesOf(doc: Doc): EntryFile[] {
  const list = Array.isArray(doc.files) ? (doc.files as EntryFile[]) : [];
  const canvas = doc.canvas && typeof doc.canvas === 'object' ? [doc.canvas as EntryFile] : [];
  return [...list, ...canvas];
}

/** Moves the bytes of files written on this device to the server's ids (or drops them). */
async function moveLocalFiles(db: ReplicaDatabase, module: FileModule, localDoc: Doc, serverDoc: Doc | null): Promise<void> {
  const files = db.files as unknown as RxCollection<FileDoc>;
  const remaining = serverDoc ? filesOf(serverDoc) : [];
  for (const file of filesOf(localDoc)) {
    const stored = await files.findOne(localFileKey(file.id)).exec();
    if (!stored) continue;
    const index = remaining.findIndex((f) => f.name === file.name && f.size === file.size);
    if (index >= 0) {
      const [match] = remaining.splice(index, 1);
      const plain = stored.toJSON() as unknown as FileDoc;
      await files.upsert({ ...plain, id: fileCacheKey(module, match!.id), kind: 'file', updated_at: new Date().toISOString(), ...syncFields(SYNCED) });
    }
    await stored.remove();
  }
}

export async function settleCreated(local: LocalRef, result: OutboxResult): Promise<void> {
  const serverId = result.id;
  if (!serverId || serverId === local.id) return;
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const optimistic = await target.findOne(local.id).exec();
  if (!optimistic) return; // already settled (or discarded): nothing to do, never a second copy
  const localDoc = optimistic.toMutableJSON() as Doc;
  const existing = await target.findOne(serverId).exec();
  let serverDoc: Doc | null = existing ? (existing.toMutableJSON() as Doc) : null;
  if (!existing) {
    const fromAnswer = serverDocOf(local, localDoc, result.data);
    // Without a readable row: the local text under the server's id; any pull replaces it.
    const { sync_server: _parked, ...rest } = localDoc;
    serverDoc = fromAnswer ?? { ...rest, id: serverId, local_only: false };
    await target.upsert({ ...serverDoc, ...syncFields(SYNCED), sync_server: null, id: serverId });
  }
  await moveLocalFiles(db, moduleOf(local), localDoc, serverDoc);
  await optimistic.remove();
}

const ENTRY_COLLECTIONS = new Set(['journal', 'voice', 'comments']);

/**
 * A delivered write (the outbox's success path): a create is swapped for the server's copy
 * (settleCreated); an update of an entry or comment takes the server's answer at once (newer
 * than what the replica holds) and moves its pending files to the server's ids. Anything else is
 * simply marked synced.
 */
export async function settleDelivered(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  if (result?.id && result.id !== local.id) {
    await settleCreated(local, result);
    return;
  }
  if (!ENTRY_COLLECTIONS.has(local.collection) || !result?.data) {
    await setSyncState(local.collection, local.id, sync);
    return;
  }
  const { db } = await whenReplicaOpen();
  const target = db.collections[local.collection] as unknown as RxCollection<Doc>;
  const before = await target.findOne(local.id).exec();
  const localDoc = before ? (before.toMutableJSON() as Doc) : null;
  const serverDoc = localDoc ? serverDocOf(local, localDoc, result.data) : null;
  if (localDoc) await moveLocalFiles(db, moduleOf(local), localDoc, serverDoc);
  await setSyncState(local.collection, local.id, sync);
  if (!serverDoc) return;
  const after = await target.findOne(local.id).exec();
  const current = after?.toMutableJSON() as (Doc & { sync_state?: string; updated_at?: string }) | undefined;
  if (after && current?.sync_state === 'synced' && String(serverDoc.updated_at) >= String(current.updated_at ?? '')) {
    await after.incrementalModify(() => ({ ...serverDoc, ...syncFields(SYNCED), sync_server: null, id: local.id }));
  }
}
