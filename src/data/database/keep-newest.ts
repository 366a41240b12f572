/**
 * A storage wrapper that refuses, as a conflict, writes a collection's `keepNewest` rule rejects:
 * for `tasks`, an older copy of a task log written over a newer one.
 *
 * Why at the storage and not only in the pull's modifier: two replications fill `tasks` (the
 * current and the completed tab). The modifier runs when a page arrives, but RxDB writes the page
 * later, in its own queue; between the two the other replication may have written a newer copy,
 * and the late write would undo it. RxDB hands every write the document it replaces (`previous`),
 * and the underlying storage already refuses a write whose `previous` is not the stored revision,
 * so comparing with `previous` here decides against exactly what is stored. A refusal is a 409
 * with the stored document, which RxDB's downstream treats as "already newer here" and skips;
 * a collection write (incrementalModify) would retry with the stored copy.
 */
import type { BulkWriteRow, RxDocumentData, RxStorage, RxStorageInstance, RxStorageWriteError } from 'rxdb';
import { patchInstances } from './patch-instances';

/** `true`: `next` may replace `stored`. Called only for updates (there is a stored document). */
export type KeepNewest<T = Record<string, unknown>> = (stored: T, next: T) => boolean;

type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;

/**
 * Replaces the instance's bulkWrite in place, as RxDB's own validation wrapper does (a proxy would
 * loop: a wrapper above replaces `bulkWrite` on the instance and calls the one it found).
 */
function guardInstance(instance: AnyInstance, keep: KeepNewest): AnyInstance {
  const original = instance.bulkWrite.bind(instance);
  instance.bulkWrite = async (rows, context) => {
    const allowed: BulkWriteRow<Record<string, unknown>>[] = [];
    const refused: RxStorageWriteError<Record<string, unknown>>[] = [];
    for (const row of rows) {
      const previous = row.previous;
      if (previous && !keep(previous, row.document)) {
        refused.push({
          status: 409,
          isError: true,
          documentId: String(previous[instance.schema.primaryKey as string] ?? ''),
          writeRow: row,
          documentInDb: previous as RxDocumentData<Record<string, unknown>>,
          context,
        });
      } else {
        allowed.push(row);
      }
    }
    if (refused.length === 0) return original(rows, context);
    const result = allowed.length > 0 ? await original(allowed, context) : { error: [] };
    return { error: [...result.error, ...refused] };
  };
  return instance;
}

/** Wraps `storage` so the instances of the named collections apply their rule. */
export function keepNewestStorage<I, O>(storage: RxStorage<I, O>, rules: Readonly<Record<string, KeepNewest>>): RxStorage<I, O> {
  if (Object.keys(rules).length === 0) return storage;
  return patchInstances(storage, (instance, params) => {
    const rule = Object.hasOwn(rules, params.collectionName) ? rules[params.collectionName] : undefined;
    if (rule) guardInstance(instance as unknown as AnyInstance, rule);
  });
}
