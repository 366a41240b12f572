/**
 * An edit conflict on the device (issue 12): the server refused a change with 412 because another
 * device changed the entry first. The entry then holds both versions: the young person's own, as
 * the document itself (failed, its words, drawing, reaction and files as they made them), and the
 * other device's, parked in `sync_server` (from the refusal's answer, or any newer copy a pull
 * brought since). Nothing is lost until the young person chooses (./edit-conflict.ts).
 */
import { entryMessages } from '@/contract/entry-messages';
import type { EntryDoc } from '../../data/replica/types';

/** The parked server copy of `doc`, when it is one (not the base marker of a pending change, not a tombstone). */
export function otherVersionOf(doc: EntryDoc): EntryDoc | null {
  const parked = doc.sync_server as (Partial<EntryDoc> & { sync_base?: boolean; _deleted?: boolean }) | null | undefined;
  if (!parked || parked.sync_base === true || parked._deleted === true || typeof parked.updated_at !== 'string') return null;
  return parked as EntryDoc;
}

/** A refused change that met another device's change, with the other version on the device. */
export function isEditConflict(doc: EntryDoc): boolean {
  return doc.sync_state === 'failed' && doc.sync_message === entryMessages.editConflict && otherVersionOf(doc) !== null;
}

/** The field errors of a refusal that mean "edit conflict" (the server's 412). */
export const isConflictRefusal = (errors: Readonly<Record<string, readonly string[]>> | undefined): boolean =>
  errors?.base_updated_at?.[0] === entryMessages.editConflict;
