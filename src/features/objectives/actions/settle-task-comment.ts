/**
 * What a delivered objective comment or review does to the replica (the outbox's success path,
 * wired by the composition root, src/app/start-data.ts). The overlay keeps the server's comment
 * (server file ids, creator, created_at, updated_at), synced, until the log's next pull carries it
 * (src/data/replica/task-overlays.ts); photos written on this device move to the server's file ids
 * so they stay viewable offline. The answer goes in in one write (src/data/replica/local-writes.ts
 * setSyncState). Applying it twice changes nothing.
 */
import { taskCommentSchema } from '@/contract/tasks';
import type { LocalRef, OutboxResult } from '@/data/outbox/types';
import { setSyncState, type SyncState } from '@/data/replica/local-writes';
import { whenReplicaOpen } from '@/data/replica/replica-store';
import type { TaskCommentOverlayDoc } from '@/data/replica/types';
import { taskCommentOverlayOf } from '@/data/replication/endpoints';
import { moveLocalFiles, type Doc } from '@/entries/data/server-copy';

export async function settleTaskComment(local: LocalRef, sync: SyncState, result: OutboxResult | null | undefined): Promise<void> {
  const { db } = await whenReplicaOpen();
  const before = await db.tasks.findOne(local.id).exec();
  const localDoc = before?.toJSON() as unknown as TaskCommentOverlayDoc | undefined;
  if (!before || localDoc?.kind !== 'comment') {
    await setSyncState(local.collection, local.id, sync);
    return;
  }
  const parsed = result?.data ? taskCommentSchema.safeParse(result.data) : null;
  const serverDoc = parsed?.success && parsed.data.id === local.id ? (taskCommentOverlayOf(parsed.data) as Doc) : null;
  await moveLocalFiles(db, 'task_comment', localDoc as unknown as Doc, serverDoc);
  const outboxId = local.outboxId ?? localDoc.sync_outbox_id ?? null;
  if (serverDoc) {
    // One write: the comment never shows synced with this device's file ids in between.
    await setSyncState(local.collection, local.id, sync, { copy: { ...serverDoc, id: local.id }, outboxId });
    return;
  }
  await setSyncState(local.collection, local.id, sync, { outboxId, kept: result?.id === local.id });
}
