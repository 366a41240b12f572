/**
 * The one write path of journal and voice entries (create and update), shared by the features'
 * thin actions. Order: the replica (waiting briefly for it just after a page load) → a locked entry
 * is refused → validate (contract texts, files by name and by first bytes) → resize photos on the
 * device → sizes → image check of the photos and the drawing when online (refused: "Image added is
 * inappropriate", nothing queued; offline or unreachable: queued anyway) → pending files kept
 * encrypted in the replica → the optimistic document (pending) → the outbox (multipart per SPEC §5,
 * Idempotency-Key = outbox id). A create sends the optimistic document's id, so the server's row
 * and the local document are one document (settle.ts, docs/offline-outbox.md). Nothing here waits
 * on the network except the image check.
 */
import type { EntryKind } from '@/contract/entry-kind';
import type { FieldErrors } from '@/contract/envelope';
import { entryMessages, type EntryFile } from '@/contract/entries';
import { entryPaths } from '@/contract/paths';
import { enqueueWrite, newIdempotencyKey, withdrawUnsentWrite } from '../../data/outbox/outbox';
import { applyLocalChange } from '../../data/replica/local-writes';
import type { EntryDoc } from '../../data/replica/types';
import { checkImages } from './check-images';
import { storeLocalFile } from './local-files';
import { replicaForWrite } from './replica-for-write';
import type { EntryDraft, WriteResult } from './types';
import { checkSizes, localStamp, validateEntry } from './validate';
import { creatorOf, isOnline, prepareFiles, refused, STILL_SENDING } from './write-support';

const LABELS: Record<EntryKind, string> = { journal: 'Journal entry', voice: 'Voice entry' };

const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;
const firstError = (errors: FieldErrors, fallback: string) => Object.values(errors)[0]?.[0] ?? fallback;

export interface SaveEntryOptions {
  /** Update this entry (absent: create). */
  readonly id?: string;
  readonly now?: Date;
}

export async function saveEntry(type: EntryKind, draft: EntryDraft, options: SaveEntryOptions = {}): Promise<WriteResult> {
  const failure = options.id ? entryMessages.updateFailed : entryMessages.postFailed;
  const open = await replicaForWrite();
  if (!open) return refused(failure);
  const collection = open.db[type];
  const now = options.now ?? new Date();

  const existing = options.id ? ((await collection.findOne(options.id).exec())?.toJSON() as EntryDoc | undefined) : undefined;
  if (options.id && !existing) return refused(failure);
  // Staff closed the conversation: the server would refuse the change (422), so nothing is queued.
  if (existing?.locked_at) return refused(entryMessages.locked);

  const errors = await validateEntry(
    type,
    draft,
    { fileIds: existing?.files.map((f) => f.id) ?? [], hasCanvas: Boolean(existing?.canvas) },
    now,
  );
  if (hasErrors(errors)) return refused(firstError(errors, failure), errors);

  const files = await prepareFiles(draft.files ?? []);
  const sizeErrors = checkSizes(files, draft.canvas);
  if (hasErrors(sizeErrors)) return refused(firstError(sizeErrors, failure), sizeErrors);

  const check = await checkImages(open.identity.residentId, files, draft.canvas ?? null);
  if (check.outcome === 'refused') {
    return refused(entryMessages.imageInappropriate, { [check.field]: [entryMessages.imageInappropriate] });
  }

  // An entry the server has not created yet is edited by replacing its queued create. A synced one
  // is on the server, even while its create's answer is still being applied (local_only until then).
  const createsAgain = Boolean(existing?.local_only) && existing?.sync_state !== 'synced';
  if (existing && createsAgain && existing.sync_outbox_id) {
    const withdrawn = await withdrawUnsentWrite(existing.sync_outbox_id);
    if (!withdrawn) return refused(STILL_SENDING);
  } else if (existing?.sync_state === 'failed' && existing.sync_outbox_id) {
    // The refused change is replaced by this one: it leaves the queue, so nothing counts it twice.
    await withdrawUnsentWrite(existing.sync_outbox_id);
  }

  const stamp = localStamp(now);
  const entryDate = draft.entryDate ?? (existing && 'entry_date' in existing ? existing.entry_date : stamp.slice(0, 10));
  const entryTime = draft.entryTime ?? (existing && 'entry_time' in existing ? existing.entry_time : stamp.slice(11, 16));

  // Pending files, kept encrypted on the device so the entry shows them offline.
  const newFiles: EntryFile[] = [];
  for (const file of files) newFiles.push(await storeLocalFile(open.db, file, file.name));
  const canvasFile = draft.canvas ? await storeLocalFile(open.db, draft.canvas, 'canvas.png') : null;

  const removed = new Set(draft.removeFiles ?? []);
  const keptFiles = (existing?.files ?? []).filter((f) => !removed.has(f.id));
  const canvas = canvasFile ?? (draft.removeCanvas ? null : (existing?.canvas ?? null));
  const outboxId = newIdempotencyKey();
  const id = existing?.id ?? outboxId;
  const at = now.toISOString();
  const description = draft.description ?? null;
  const reaction = draft.reaction ?? null;
  const sharedWith = [...(draft.sharedWith ?? existing?.shared_with ?? [])];
  const sharedWithManagement = draft.sharedWithManagement ?? existing?.shared_with_management ?? false;

  const patch: Record<string, unknown> = {
    updated_at: existing?.updated_at ?? at,
    resident_id: existing?.resident_id ?? open.identity.residentId ?? '',
    created_at: existing?.created_at ?? at,
    locked_at: existing?.locked_at ?? null,
    local_only: existing ? createsAgain : true,
    creator: existing?.creator ?? (await creatorOf(open)),
    description,
    reaction,
    canvas,
    files: [...keptFiles, ...newFiles],
    shared_with: sharedWith,
    shared_with_management: sharedWithManagement,
    comments_count: existing?.comments_count ?? 0,
  };
  if (type === 'journal') {
    patch.entry_date = entryDate;
    patch.entry_time = entryTime;
    patch.sort_key = `${entryDate}T${entryTime}`;
  } else {
    patch.category_id = draft.categoryId ?? (existing && 'category_id' in existing ? existing.category_id : '');
    patch.sort_key = existing?.sort_key ?? at;
  }
  await applyLocalChange(type, id, patch, { state: 'pending', message: null, outbox_id: outboxId });

  const update = Boolean(existing) && !createsAgain;
  const fields: Record<string, unknown> = {
    // Create only: the server keeps this id (src/contract/entries.ts clientIdSchema).
    ...(update ? {} : { id }),
    description,
    reaction,
    shared_with: sharedWith,
    shared_with_management: sharedWithManagement ? '1' : '0',
    ...(type === 'journal' ? { entry_date: entryDate, entry_time: entryTime } : { category_id: patch.category_id }),
    ...(update ? { remove_files: [...removed], remove_canvas: draft.removeCanvas ? '1' : null } : {}),
  };
  try {
    await enqueueWrite({
      method: 'POST',
      path: update ? entryPaths[type].entry.build(id) : entryPaths[type].entries.build(),
      ...(update ? { methodOverride: 'PUT' as const } : {}),
      fields,
      files,
      fileFields: draft.canvas ? [{ name: 'canvas', file: draft.canvas, filename: 'canvas.png' }] : [],
      idempotencyKey: outboxId,
      local: { collection: type, id },
      label: LABELS[type],
      topics: [type, 'feedback'],
      failureMessage: update ? entryMessages.updateFailed : entryMessages.postFailed,
    });
  } catch {
    // Not queued (no data key, no storage): the text stays on the device, marked failed.
    await applyLocalChange(type, id, {}, { state: 'failed', message: failure, outbox_id: null }).catch(() => undefined);
    return refused(failure);
  }
  return { ok: true, id, queuedOffline: check.outcome === 'offline' || !isOnline() };
}
