/**
 * Pulled copies the storage refused. RxDB's pull replication reads the stored document, then writes
 * the pulled copy with the revision it read; a local write in between (the outbox settling that very
 * document) makes the write a conflict (409). A pull-only replication ignores it (RxDB leaves
 * conflicts to an upstream, and ours have none) while its checkpoint moves past the row, so the
 * server's copy would never arrive: the device kept its own older words for good (found by the
 * chaos suite, issue 12). This wrapper hands such refused copies to the pull of their collection,
 * which writes them again on the document as it is now (src/data/replication/pull.ts).
 *
 * It also refuses, the same way, a pulled copy built on a local state the document no longer has.
 * The pull's modifier reads the document when the page arrives and RxDB writes what it decided a
 * little later, in its own queue, with the revision it reads then; a change made in between passes
 * the storage's own check. So a copy that kept a pending change the outbox has settled since would
 * bring back "pending" for good (nothing would settle it again: an entry that never let the young
 * person reply, seen in e2e after a reload); one built on a synced document would write the server's
 * copy over a change made since. Compared with RxDB's `previous`, the stored document, the decision
 * is taken against exactly what the write replaces.
 *
 * It sits below the collections' own rules (./keep-newest.ts: a copy they refuse stays refused) and
 * above the encryption, so it sees plain documents.
 */
import type { BulkWriteRow, RxDocumentData, RxStorage, RxStorageInstance, RxStorageWriteError } from 'rxdb';
import { patchInstances } from './patch-instances';

export type RefusedCopy = Record<string, unknown> & { id: string };
type Listener = (copy: RefusedCopy) => void;
type AnyInstance = RxStorageInstance<Record<string, unknown>, unknown, unknown, unknown>;

/** RxDB's context for the writes of a replication's pulls (`replication-downstream-<checkpoint key>`). */
const DOWNSTREAM = 'replication-downstream-';

const listeners = new Map<string, Set<Listener>>();
const keyOf = (databaseName: string, collectionName: string) => `${databaseName}/${collectionName}`;

/** Calls `listener` with every pulled copy of this collection the storage refused as a conflict. */
export function onRefusedPull(databaseName: string, collectionName: string, listener: Listener): () => void {
  const key = keyOf(databaseName, collectionName);
  const set = listeners.get(key) ?? new Set<Listener>();
  set.add(listener);
  listeners.set(key, set);
  return () => {
    set.delete(listener);
    if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
  };
}

/**
 * `pending:<outbox id>`, `failed:<outbox id>` or `synced`: the local change a document carries
 * (nothing stored carries none).
 */
function localState(doc: Record<string, unknown> | undefined): string {
  const state = doc?.sync_state;
  return state === 'pending' || state === 'failed' ? `${state}:${String(doc?.sync_outbox_id ?? '')}` : 'synced';
}

/**
 * A pulled copy the modifier built on another local state than the stored one. With nothing stored,
 * one that carries a local change: the document was there and is gone, taken back since, and
 * writing the copy would bring it back pending.
 */
const builtOnStaleState = (row: BulkWriteRow<Record<string, unknown>>): boolean => localState(row.previous) !== localState(row.document);

/** Replaces the instance's bulkWrite in place, as ./keep-newest.ts does (a proxy would loop). */
function watchInstance(instance: AnyInstance, key: string): AnyInstance {
  const original = instance.bulkWrite.bind(instance);
  instance.bulkWrite = async (rows, context) => {
    if (!context.startsWith(DOWNSTREAM)) return original(rows, context);
    const written: BulkWriteRow<Record<string, unknown>>[] = [];
    const stale: BulkWriteRow<Record<string, unknown>>[] = [];
    for (const row of rows) (builtOnStaleState(row) ? stale : written).push(row);
    const result = written.length > 0 ? await original(written, context) : { error: [] };
    const refused = stale.map((row): RxStorageWriteError<Record<string, unknown>> => ({
      status: 409,
      isError: true,
      documentId: String(row.document[instance.schema.primaryKey as string] ?? ''),
      writeRow: row,
      // RxDB's downstream skips a 409 without reading it; with nothing stored, the copy stands in.
      documentInDb: (row.previous ?? row.document) as RxDocumentData<Record<string, unknown>>,
      context,
    }));
    const response = refused.length === 0 ? result : { error: [...result.error, ...refused] };
    for (const error of response.error) {
      if (error.status !== 409) continue;
      for (const listener of listeners.get(key) ?? []) listener(error.writeRow.document as unknown as RefusedCopy);
    }
    return response;
  };
  return instance;
}

export function refusedPullsStorage<I, O>(storage: RxStorage<I, O>): RxStorage<I, O> {
  return patchInstances(storage, (instance, params) => watchInstance(instance as unknown as AnyInstance, keyOf(params.databaseName, params.collectionName)));
}
