/**
 * Deleted rows that still hold what they said. RxDB never forgets a deleted document: it keeps the
 * last content it had. A tombstone the server sends now is blank for rewards, staff who left and
 * lost access, but a device that pulled a paused reward before the server blanked them keeps its
 * name, description and picture in the deleted row; an entry deleted on the server arrives with its
 * words and files; a shift yesterday leaves the roster with the carer's name (the controller
 * removes it), and a comment overlay the log's pull has taken over leaves with the young person's
 * words (src/data/replica/task-overlays.ts).
 *
 * A deleted row is blanked when nothing on the device can want its content back: it is synced and
 * names no outbox write (`sync_outbox_id`): no local change waits on it (a pull never deletes a
 * pending or failed row, it parks the server's tombstone beside it). Blank is what a removal on this
 * device leaves (../replica/remove-emptied.ts, which every removal of content uses): every encrypted
 * field set to the empty value of its type, the clear fields (ids, dates, sort keys, kinds) kept, so
 * the row still satisfies its schema and a checkpoint or `keepNewest` reads what it did. The write
 * is made on the revision read: a pull that brings the row back meanwhile makes it a conflict, and
 * the pull's copy stands (src/data/database/refused-pulls.ts hands a refused pull back to its
 * replication the other way round).
 */
import type { RxCollection, RxJsonSchema } from 'rxdb';
import { emptiedFields, holdsContent } from '../replica/remove-emptied';
import type { ChangesSince, ReplicaDatabase } from '../replica/replica-store';

type Collection = Parameters<ChangesSince>[0];
type Plain = Record<string, unknown> & { id: string; _deleted?: boolean };

/** The collections whose deleted rows are blanked: every one the sweep reads but `files` and `documents` (./file-sweep.ts). */
export const BLANKED_COLLECTIONS = ['comments', 'journal', 'voice', 'tasks', 'lookups', 'points', 'staff', 'rota', 'calendar', 'feedback'] as const satisfies readonly Collection[];

/** The blank form's encrypted fields, or null when the row is blank already (../replica/remove-emptied.ts). */
function blanks(schema: RxJsonSchema<Plain>, doc: Plain): Record<string, unknown> | null {
  return holdsContent(schema, doc) ? emptiedFields(schema, doc) : null;
}

/** A deleted row read by the sweep that still holds content and no local change. */
export function needsBlanking(db: ReplicaDatabase, collection: Collection, doc: Plain): boolean {
  if (doc._deleted !== true || doc.sync_state !== 'synced' || doc.sync_outbox_id) return false;
  return blanks(db[collection].schema.jsonSchema as unknown as RxJsonSchema<Plain>, doc) !== null;
}

/** Blanks these deleted rows of one collection in one write; a row changed since it was read is left (a conflict). */
export async function blankDeletedRows(db: ReplicaDatabase, collection: Collection, docs: readonly Plain[]): Promise<number> {
  const target = db[collection] as unknown as RxCollection<Plain>;
  const schema = target.schema.jsonSchema as unknown as RxJsonSchema<Plain>;
  const rows = docs.flatMap((doc) => {
    const fields = blanks(schema, doc);
    return fields ? [{ previous: doc as never, document: { ...doc, ...fields, _deleted: true } as never }] : [];
  });
  if (rows.length === 0 || db.closed) return 0;
  const result = await target.storageInstance.bulkWrite(rows, 'hearth-blank-deleted');
  return rows.length - result.error.length;
}
