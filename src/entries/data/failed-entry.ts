/**
 * A journal or voice entry the server refused for good (a 422, a closed conversation) is never
 * stuck on the device (issue 12): the young person can send it again as it is, change it (the
 * edit page), or discard it after a confirmation that offers to copy the words first.
 */
import type { EntryKind } from '@/contract/entry-kind';
import { retryFailedWrite, withdrawWritesOf } from '../../data/outbox/outbox';
import { applyLocalChange, discardLocalChange } from '../../data/replica/local-writes';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import type { EntryDoc } from '../../data/replica/types';
import { isEditConflict } from './conflict-state';
import { keepMine } from './edit-conflict';
import { replicaForWrite } from './replica-for-write';
import { forgetRefusedFields } from './refused-fields';

export type FailedEntryResult = { ok: true } | { ok: false; message: string };

/** What "Discard" cannot do without a connection or a copy: say so plainly. */
export const NOTHING_TO_GO_BACK_TO = 'Hearth has no earlier copy of this entry on this device yet. Please try again when you are online.';
export const SEND_AGAIN_BY_EDITING = 'This can no longer be sent as it is. Please open it, check it and save it again.';

async function failedDoc(kind: EntryKind, id: string): Promise<{ db: ReplicaDatabase; doc: EntryDoc } | null> {
  const open = await replicaForWrite();
  const doc = (await open?.db[kind].findOne(id).exec())?.toJSON() as EntryDoc | undefined;
  return open && doc?.sync_state === 'failed' ? { db: open.db, doc } : null;
}

/**
 * Sends the refused write again, unchanged (say the reason has passed); the entry waits to send.
 * An edit conflict's refusal would only be repeated: there, sending it again is "keep mine".
 */
export async function retryFailedEntry(kind: EntryKind, id: string): Promise<FailedEntryResult> {
  const found = await failedDoc(kind, id);
  if (!found) return { ok: true };
  const { db, doc } = found;
  if (isEditConflict(doc)) return keepMine(kind, id);
  const outboxId = doc.sync_outbox_id;
  if (!outboxId) return { ok: false, message: SEND_AGAIN_BY_EDITING };
  // Pending first: the write's answer (synced, or refused again) must land after it. Marked pending
  // after the write went, a quick answer was overwritten and the entry said "pending" for good.
  // The refusal's field errors go before it too: a new refusal brings its own.
  await applyLocalChange(kind, id, {}, { state: 'pending', message: null, outbox_id: outboxId });
  await forgetRefusedFields(db, kind, id);
  if (await retryFailedWrite(outboxId)) return { ok: true };
  // Nothing of it left to send again (taken back meanwhile): failed as it was.
  await applyLocalChange(kind, id, {}, { state: 'failed', message: doc.sync_message, outbox_id: outboxId });
  return { ok: false, message: SEND_AGAIN_BY_EDITING };
}

/**
 * Takes the refused change back: the server's copy returns (or a never-sent entry goes), and its
 * write leaves the outbox. For an edit conflict that copy is the other device's version ("keep the other one").
 */
export async function discardFailedEntry(kind: EntryKind, id: string): Promise<FailedEntryResult> {
  const found = await failedDoc(kind, id);
  if (!found) return { ok: true };
  // A failed write is a refusal (4xx) or one this key cannot open: either way it can leave the
  // queue, with anything queued behind it (an edit conflict's later changes).
  await withdrawWritesOf({ collection: kind, id });
  if (!(await discardLocalChange(kind, id))) return { ok: false, message: NOTHING_TO_GO_BACK_TO };
  await forgetRefusedFields(found.db, kind, id);
  return { ok: true };
}
