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
 *
 * Edit conflicts (issue 12): an update says which server copy it was made from (`base_updated_at`:
 * the document's `updated_at`, which stays the server's while changes wait) and this device's id,
 * so the server refuses it (412) when another device changed the entry since, and lets this
 * device's own changes in a row through. Saving an entry in conflict writes over the other version
 * (./conflict-state.ts): the young person has seen it.
 */
import type { EntryKind } from '@/contract/entry-kind';
import type { FieldErrors } from '@/contract/envelope';
import { entryMessages, type EntryFile } from '@/contract/entries';
import { entryPaths } from '@/contract/paths';
import { currentDeviceId, enqueueWrite, newIdempotencyKey, withdrawUnsentWrite, withdrawWritesOf } from '../../data/outbox/outbox';
import { applyLocalChange } from '../../data/replica/local-writes';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import type { EntryDoc } from '../../data/replica/types';
import { checkImages } from './check-images';
import { isEditConflict, otherVersionOf } from './conflict-state';
import { readCachedFile, readLocalFile, storeLocalFile } from './local-files';
import { replicaForWrite } from './replica-for-write';
import { forgetRefusedFields } from './refused-fields';
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

  // An edit conflict the young person has seen both sides of: this change is made on the other
  // version (it is what the server has now), so it is their choice, not a new conflict.
  const other = existing && isEditConflict(existing) ? otherVersionOf(existing) : null;

  // An entry the server has not created yet is edited by replacing its queued create. A synced one
  // is on the server, even while its create's answer is still being applied (local_only until then).
  const createsAgain = Boolean(existing?.local_only) && existing?.sync_state !== 'synced';
  let withdrew = false;
  if (existing && createsAgain && existing.sync_outbox_id) {
    const withdrawn = await withdrawUnsentWrite(existing.sync_outbox_id);
    if (!withdrawn) return refused(STILL_SENDING);
    withdrew = true;
  } else if (existing && existing.sync_state !== 'synced') {
    // The refused change, and anything queued behind it, is replaced by this one: it leaves the
    // queue, so nothing counts it twice and nothing waits behind it for ever. Pending too: its
    // change may already be refused in the queue with the outcome not yet applied here (the chaos
    // suite, sequence 40 of seed 20260612: an edit saved 10 ms after a 412 waited behind it for
    // good); one never tried is replaced as well, and one on its way stays and goes first.
    withdrew = await withdrawWritesOf({ collection: type, id: existing.id });
  }

  const stamp = localStamp(now);
  const entryDate = draft.entryDate ?? (existing && 'entry_date' in existing ? existing.entry_date : stamp.slice(0, 10));
  const entryTime = draft.entryTime ?? (existing && 'entry_time' in existing ? existing.entry_time : stamp.slice(11, 16));

  // Pending files, kept encrypted on the device so the entry shows them offline.
  const newFiles: EntryFile[] = [];
  for (const file of files) newFiles.push(await storeLocalFile(open.db, file, file.name));
  const canvasFile = draft.canvas ? await storeLocalFile(open.db, draft.canvas, 'canvas.png') : null;

  const removed = new Set(draft.removeFiles ?? []);
  // Files written on this device go with the write that carries them; when that write was taken
  // back (or there is none waiting), this one carries them.
  const carry = withdrew || existing?.sync_state !== 'pending';
  const kept = await keepFiles(open.db, type, (existing?.files ?? []).filter((f) => !removed.has(f.id)), carry, other?.files ?? null);
  const keptCanvas = canvasFile || draft.removeCanvas ? null : (existing?.canvas ?? null);
  const carriedCanvas = keptCanvas ? await keepFiles(open.db, type, [keptCanvas], carry, other ? (other.canvas ? [other.canvas] : []) : null) : null;
  const canvas = canvasFile ?? (carriedCanvas?.files[0] ?? null);
  const outboxId = newIdempotencyKey();
  const id = existing?.id ?? outboxId;
  const at = now.toISOString();
  const description = draft.description ?? null;
  const reaction = draft.reaction ?? null;
  const sharedWith = [...(draft.sharedWith ?? existing?.shared_with ?? [])];
  const sharedWithManagement = draft.sharedWithManagement ?? existing?.shared_with_management ?? false;

  const patch: Record<string, unknown> = {
    // Kept while the change waits: the server copy it is made from (its `base_updated_at`).
    updated_at: other?.updated_at ?? existing?.updated_at ?? at,
    resident_id: existing?.resident_id ?? open.identity.residentId ?? '',
    created_at: existing?.created_at ?? at,
    locked_at: existing?.locked_at ?? null,
    local_only: existing ? createsAgain : true,
    creator: existing?.creator ?? (await creatorOf(open)),
    description,
    reaction,
    canvas,
    files: [...kept.files, ...newFiles],
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
  await applyLocalChange(type, id, patch, { state: 'pending', message: null, outbox_id: outboxId }, { base: other as Record<string, unknown> | null });
  // This change answers the refusal's field errors: they are no longer this entry's.
  if (existing) await forgetRefusedFields(open.db, type, id);

  const update = Boolean(existing) && !createsAgain;
  // What the server should drop: what the young person removed, or, writing over the other
  // version, whatever that version has and theirs does not.
  const keptIds = new Set(kept.files.map((f) => f.id));
  const removeFiles = other ? other.files.filter((f) => !keptIds.has(f.id)).map((f) => f.id) : [...removed];
  const removeCanvas = other ? !canvas && Boolean(other.canvas) : Boolean(draft.removeCanvas);
  // The copy this change is made from (none while its create's answer is still being applied:
  // the document's time is then the device's clock, and the create was this device's anyway).
  const base = update && existing && !existing.local_only ? (other?.updated_at ?? existing.updated_at) : null;
  const deviceId = await currentDeviceId();
  const fields: Record<string, unknown> = {
    // Create only: the server keeps this id (src/contract/entries.ts clientIdSchema).
    ...(update ? {} : { id }),
    description,
    reaction,
    shared_with: sharedWith,
    shared_with_management: sharedWithManagement ? '1' : '0',
    ...(type === 'journal' ? { entry_date: entryDate, entry_time: entryTime } : { category_id: patch.category_id }),
    ...(update ? { remove_files: removeFiles, remove_canvas: removeCanvas ? '1' : null, base_updated_at: base } : {}),
    device_id: deviceId,
  };
  const canvasPart = draft.canvas ?? carriedCanvas?.uploads[0] ?? null;
  try {
    await enqueueWrite({
      method: 'POST',
      path: update ? entryPaths[type].entry.build(id) : entryPaths[type].entries.build(),
      ...(update ? { methodOverride: 'PUT' as const } : {}),
      fields,
      files: [...kept.uploads, ...files],
      fileFields: canvasPart ? [{ name: 'canvas', file: canvasPart, filename: 'canvas.png' }] : [],
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

/**
 * The entry's files this save keeps, and those of them it must upload again: files written on this
 * device that no waiting write carries (`carry`: their bytes are still here, encrypted), and,
 * writing over another version (`serverHas`: the files that version has), this device's server
 * files that version no longer has, from the bytes cached when they were shown. A server file
 * whose bytes are not here cannot be sent again and is left out.
 */
async function keepFiles(db: ReplicaDatabase, type: EntryKind, files: readonly EntryFile[], carry: boolean, serverHas: readonly EntryFile[] | null) {
  const kept: EntryFile[] = [];
  const uploads: File[] = [];
  for (const file of files) {
    const local = await readLocalFile(db, file);
    if (local) {
      kept.push(file);
      if (carry) uploads.push(local);
      continue;
    }
    if (!serverHas || serverHas.some((f) => f.id === file.id)) {
      kept.push(file);
      continue;
    }
    const cached = await readCachedFile(db, type, file);
    if (cached) {
      kept.push(file);
      uploads.push(cached);
    }
  }
  return { files: kept, uploads };
}
