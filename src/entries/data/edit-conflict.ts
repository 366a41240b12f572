/**
 * The young person's three answers to an edit conflict (issue 12; ./conflict-state.ts): their own
 * version is the entry on the device, the other device's is parked beside it, and nothing is lost
 * until they choose.
 * - Keep mine: their version is sent again, made on the other one (so it is not a new conflict):
 *   their words, drawing, reaction, sharing and files; files the other version added go.
 * - Keep the other one: their version leaves the device (the screen asks first and offers to copy
 *   the words) and the entry shows the other device's.
 * - Keep both: their version is saved as a new entry (with its photos and drawing), and this entry
 *   shows the other device's.
 * Each takes back the refused write and anything queued behind it, so nothing old goes later.
 */
import { viewFile } from '@/api/files/view-file';
import type { EntryFile } from '@/contract/entries';
import type { EntryKind } from '@/contract/entry-kind';
import { withdrawWritesOf } from '../../data/outbox/outbox';
import { discardLocalChange } from '../../data/replica/local-writes';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import type { EntryDoc } from '../../data/replica/types';
import { isEditConflict, otherVersionOf } from './conflict-state';
import { readCachedFile, readLocalFile } from './local-files';
import { replicaForWrite } from './replica-for-write';
import type { saveEntry as SaveEntry } from './save-entry';
import type { EntryDraft } from './types';
import { STILL_SENDING } from './write-support';

export type ConflictResult = { ok: true; id?: string } | { ok: false; message: string };

/** Keep both needs the bytes of every photo and the drawing: some were never on this device. */
export const FILES_NOT_HERE = 'Some of your photos or your drawing are not on this device yet. Please try again when you are online.';

async function conflictDoc(kind: EntryKind, id: string): Promise<{ db: ReplicaDatabase; doc: EntryDoc } | null> {
  const open = await replicaForWrite();
  const doc = (await open?.db[kind].findOne(id).exec())?.toJSON() as EntryDoc | undefined;
  return open && doc && isEditConflict(doc) ? { db: open.db, doc } : null;
}

/**
 * The save, loaded when a choice is made: it carries the contract's checks (zod), which the
 * journal and voice lists showing a refused card need not load (issue 13, route budgets).
 */
const saveEntry: typeof SaveEntry = async (...args) => (await import('./save-entry')).saveEntry(...args);

/** The young person's version as a draft: everything they had, nothing new. */
function draftOf(doc: EntryDoc): EntryDraft {
  return {
    description: doc.description,
    reaction: doc.reaction,
    sharedWith: doc.shared_with,
    sharedWithManagement: doc.shared_with_management,
    ...('entry_date' in doc ? { entryDate: doc.entry_date, entryTime: doc.entry_time } : { categoryId: doc.category_id }),
  };
}

/** Keep mine: sent again on top of the other version (the save writes over the version it has seen). */
export async function keepMine(kind: EntryKind, id: string): Promise<ConflictResult> {
  const found = await conflictDoc(kind, id);
  if (!found) return { ok: true };
  const saved = await saveEntry(kind, draftOf(found.doc), { id });
  return saved.ok ? { ok: true, id } : { ok: false, message: saved.message };
}

/** Keep the other one: the young person's version goes (after the screen's confirmation). */
export async function keepOther(kind: EntryKind, id: string): Promise<ConflictResult> {
  const found = await conflictDoc(kind, id);
  if (!found) return { ok: true };
  if (!(await withdrawWritesOf({ collection: kind, id }))) return { ok: false, message: STILL_SENDING };
  await discardLocalChange(kind, id);
  return { ok: true };
}

/** A file of the young person's version as bytes: written here, cached here, or fetched when online. */
async function bytesOf(db: ReplicaDatabase, kind: EntryKind, file: EntryFile): Promise<File | null> {
  const here = (await readLocalFile(db, file)) ?? (await readCachedFile(db, kind, file));
  if (here) return here;
  const fetched = await viewFile(file.id, kind);
  return fetched.ok ? new File([fetched.data], file.name, { type: file.mime || fetched.data.type }) : null;
}

/** Keep both: the young person's version becomes a new entry; this one shows the other version. */
export async function keepBoth(kind: EntryKind, id: string): Promise<ConflictResult> {
  const found = await conflictDoc(kind, id);
  if (!found) return { ok: true };
  const { db, doc } = found;
  const files: File[] = [];
  for (const file of doc.files) {
    const bytes = await bytesOf(db, kind, file);
    if (!bytes) return { ok: false, message: FILES_NOT_HERE };
    files.push(bytes);
  }
  const canvas = doc.canvas ? await bytesOf(db, kind, doc.canvas) : null;
  if (doc.canvas && !canvas) return { ok: false, message: FILES_NOT_HERE };
  // The new entry first: if it cannot be saved, nothing has changed.
  const created = await saveEntry(kind, { ...draftOf(doc), files, canvas });
  if (!created.ok) return { ok: false, message: created.message };
  await withdrawWritesOf({ collection: kind, id });
  if (otherVersionOf(doc)) await discardLocalChange(kind, id);
  return { ok: true, id: created.id };
}
