import { taskMessages } from '@/contract/tasks';
import { withdrawWritesOf } from '@/data/outbox/outbox';
import { removeEmptied } from '@/data/replica/remove-emptied';
import type { TaskCommentOverlayDoc } from '@/data/replica/types';
import { localFileKey } from '@/entries/data/file-keys';
import { replicaForWrite } from '@/entries/data/replica-for-write';

/**
 * Takes back a comment or review on an objective that the server refused for good (issue 12, as
 * entries and replies have it): its write (and anything queued behind it) leaves the outbox, so the
 * logout warning no longer counts it, and this device's overlay goes with its photos' bytes. The
 * thread then shows the server's copy of the comment (an edit) or nothing (a comment the server
 * never had); a discarded review can be written again. The screen asks first and offers to copy
 * the words. The overlay and the photos are emptied as they are removed: a deleted document keeps
 * its last data, and a failed overlay is never the sweep's to blank.
 */
export async function discardTaskComment(commentId: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const open = await replicaForWrite();
  if (!open) return { ok: false, message: taskMessages.updateCommentFailed };
  const doc = await open.db.tasks.findOne(commentId).exec();
  const overlay = doc?.toJSON() as unknown as TaskCommentOverlayDoc | undefined;
  if (!doc || overlay?.kind !== 'comment' || overlay.sync_state !== 'failed') return { ok: true };
  await withdrawWritesOf({ collection: 'tasks', id: commentId });
  for (const file of overlay.files) {
    const bytes = await open.db.files.findOne(localFileKey(file.id)).exec();
    if (bytes) await removeEmptied(bytes);
  }
  await removeEmptied(doc);
  return { ok: true };
}
