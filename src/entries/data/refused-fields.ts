/**
 * The field errors of an entry write the server refused (422), kept for the entry's form: the
 * outbox's answer usually lands when no form is open (a replay later, another page), and the
 * document itself has room for one message only. One encrypted `files` document per entry
 * (`summary:refused:<the edit form's draft key>`, kind `summary`, as the journal's reactions),
 * gone with the replica at sign-out.
 *
 * It holds the refused write's outbox id and counts only while the entry is failed on that write:
 * a later save, a Try again or a discard makes it stale with no race against an outcome applied
 * late. They remove it too, emptied, so it does not linger (not even in the deleted document RxDB keeps).
 */
import type { EntryKind } from '@/contract/entry-kind';
import { isEntryKind } from '@/contract/entry-kind';
import type { RxCollection } from 'rxdb';
import { map, of, switchMap, type Observable } from 'rxjs';
import { removeEmptied } from '../../data/replica/remove-emptied';
import type { ReplicaDatabase } from '../../data/replica/replica-store';
import { summaryDoc, type EntryDoc, type FileDoc } from '../../data/replica/types';
import { entryEditDraftKey } from './draft-keys';
import type { FieldErrorList } from './entry-fields';

export interface RefusedFields {
  /** The refused write: a new refusal of the same entry is a new value. */
  readonly outboxId: string;
  readonly errors: FieldErrorList;
}

interface Stored {
  readonly kind: EntryKind;
  readonly id: string;
  readonly outbox_id: string;
  readonly errors: FieldErrorList;
}

/** By the form that edits the entry, so the form finds it under the key it keeps its draft under. */
const docId = (formKey: string): string => `summary:refused:${formKey}`;

export async function keepRefusedFields(db: ReplicaDatabase, kind: EntryKind, id: string, outboxId: string, errors: FieldErrorList): Promise<void> {
  const stored: Stored = { kind, id, outbox_id: outboxId, errors };
  const doc = summaryDoc(docId(entryEditDraftKey(kind, id)), stored);
  await db.files.upsert(doc);
}

export async function forgetRefusedFields(db: ReplicaDatabase, kind: EntryKind, id: string): Promise<void> {
  const doc = await db.files.findOne(docId(entryEditDraftKey(kind, id))).exec();
  if (doc) await removeEmptied(doc);
}

function parse(doc: { toJSON(): unknown } | null): Stored | null {
  const data = (doc?.toJSON() as FileDoc | undefined)?.data;
  if (!data) return null;
  try {
    const value = JSON.parse(data) as Stored;
    return isEntryKind(value.kind) && typeof value.id === 'string' && typeof value.outbox_id === 'string' && value.errors ? value : null;
  } catch {
    return null;
  }
}

/** Live: the refusal of what the form under `formKey` edits, while the entry is failed on that write. */
export function refusedFields$(db: ReplicaDatabase, formKey: string): Observable<RefusedFields | null> {
  return db.files.findOne(docId(formKey)).$.pipe(
    map(parse),
    switchMap((stored) =>
      stored
        ? (db[stored.kind] as unknown as RxCollection<EntryDoc>).findOne(stored.id).$.pipe(
            map((doc) => {
              const entry = doc?.toJSON() as EntryDoc | undefined;
              return entry?.sync_state === 'failed' && entry.sync_outbox_id === stored.outbox_id ? { outboxId: stored.outbox_id, errors: stored.errors } : null;
            }),
          )
        : of(null),
    ),
  );
}
