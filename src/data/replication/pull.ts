/**
 * The one generic pull replication: RxDB's `replicateRxCollection` (pull only) over a checkpointed
 * list endpoint of src/contract/sync.ts, or over a single-document endpoint.
 *
 * - Pages: RxDB's checkpoint `{updated_at, id}` becomes `checkpoint[updated_at]`/`checkpoint[id]`,
 *   with `with_trashed=1`, `per_page` = RxDB's batch size and `sort` updated_at, id ascending, plus
 *   the collection's fixed parameters. `meta.checkpoint` is the next checkpoint (kept as strings:
 *   `updated_at` has microseconds and is never parsed into a Date).
 * - Single document: fetched whole; it counts as new only when its `updated_at` is after the
 *   checkpoint's (string comparison, both are fixed-width UTC ISO strings).
 * - `deleted_at` becomes `_deleted` (a tombstone removes the document from every query).
 * - The modifier keeps an optimistic local document (`sync_state` pending or failed) as it is
 *   (apart from `serverFields`) and parks the server's copy in its encrypted `sync_server` field;
 *   `setSyncState(..., 'synced')` then swaps the server copy in (see ../replica/local-writes.ts).
 * - Pulled ahead (issue 10, ../prefetch/store.ts): with `prefetch`, each request first looks for an
 *   answer the service worker kept for exactly that request on a push (used once), and every
 *   success says which request this replication makes next (the controller keeps it for the
 *   worker's next push once the replication is idle, so it never competes with the page's writes).
 */
import type { RxCollection, RxDocument, WithDeleted } from 'rxdb';
import { replicateRxCollection, type RxReplicationState } from 'rxdb/plugins/replication';
import type { z } from 'zod';
import type { Checkpoint } from '@/contract/sync';
import { getApiBase } from '@/api/base-address';
import { fetchOne, fetchPage } from '@/api/sync/fetch-page';
import type { Failure, Result } from '@/api/result';
import { withQuery, type ListQuery } from '@/contract/query-string';
import { onRefusedPull } from '../database/refused-pulls';
import type { ReplicaCollectionName } from '../replica/local-writes';
import { SYNCED, syncFields } from '../replica/types';
import { DEFAULT_PER_PAGE } from './page-sizes';

export { DEFAULT_PER_PAGE, SHORT_ROWS_PER_PAGE } from './page-sizes';

interface SyncedRow {
  id: string;
  updated_at: string;
  deleted_at: string | null;
}

interface BaseConfig<Row extends SyncedRow> {
  /** Which replica collection receives the documents. */
  readonly collection: ReplicaCollectionName;
  /** Unique per endpoint and fixed parameters: a new identifier starts from an empty checkpoint. */
  readonly identifier: string;
  readonly path: string;
  /** Server row → plain document without the sync fields (those are added here). */
  readonly toDoc: (row: Row) => Record<string, unknown>;
  /**
   * Fields only the server changes (an entry's lock, its comment count): taken from a pulled copy
   * even while a local change is pending or failed, so the screens know at once that staff closed
   * the conversation. Everything else waits in `sync_server`.
   */
  readonly serverFields?: readonly string[];
}

export interface PagedPullConfig<Row extends SyncedRow> extends BaseConfig<Row> {
  readonly kind: 'pages';
  readonly schema: z.ZodType<{ data: Row[]; meta: { has_more: boolean; checkpoint: Checkpoint | null } }>;
  /** Fixed filters and parameters of this collection (the checkpoint ones are added). */
  readonly query?: ListQuery;
  readonly perPage?: number;
}

export interface SinglePullConfig<Row extends SyncedRow> extends BaseConfig<Row> {
  readonly kind: 'single';
  readonly schema: z.ZodType<{ data: Row }>;
}

export type PullConfig<Row extends SyncedRow = SyncedRow> = PagedPullConfig<Row> | SinglePullConfig<Row>;

export interface PullEvents {
  /** A request failed (status 0 offline). The replication retries unless stopped. */
  onFailure(failure: Failure, config: PullConfig): void;
  /** A request succeeded; `caughtUp` when nothing more is waiting on the server. */
  onSuccess(config: PullConfig, caughtUp: boolean): void;
}

export class PullError extends Error {
  override readonly name = 'PullError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message || `Pull failed (${status})`);
  }
}

export type PulledDoc = Record<string, unknown> & { id: string };
type Doc = PulledDoc;

/** `a` strictly after `b` in the (updated_at, id) order, compared as strings. */
export function isAfter(a: Checkpoint, b: Checkpoint | undefined): boolean {
  if (!b) return true;
  if (a.updated_at !== b.updated_at) return a.updated_at > b.updated_at;
  return a.id > b.id;
}

function pagedQuery(config: PagedPullConfig<SyncedRow>, checkpoint: Checkpoint | undefined, batchSize: number): ListQuery {
  const fixed = config.query ?? {};
  return {
    ...fixed,
    sort: [
      ['updated_at', 'asc'],
      ['id', 'asc'],
    ],
    params: {
      ...fixed.params,
      with_trashed: 1,
      per_page: batchSize,
      'checkpoint[updated_at]': checkpoint?.updated_at,
      'checkpoint[id]': checkpoint?.id,
    },
  };
}

/** A replication's part in pulling ahead (../prefetch): the controller wires it to the person's store. */
export interface PullPrefetch {
  /** The answer the service worker kept for exactly this request, or null. */
  take(url: string): Promise<string | null>;
  /** The request this replication will make next (kept by the controller once the replication is idle). */
  next(url: string): void;
}

export interface StartPullOptions {
  /** Default true: only the elected tab replicates (no effect when the database is single-instance). */
  readonly waitForLeadership?: boolean;
  /** Milliseconds before a failed request is retried (RxDB retries sooner on `online`). */
  readonly retryTime?: number;
  readonly prefetch?: PullPrefetch;
}

/** The absolute URL the HTTP client requests for `pathAndQuery` (null where it cannot be known). */
function requestUrl(pathAndQuery: string): string | null {
  try {
    return new URL(`${getApiBase()}${pathAndQuery}`, globalThis.location?.href).href;
  } catch {
    return null;
  }
}

/** Starts one live pull replication; RxDB resumes from the checkpoint stored in the replica. */
export function startPull<Row extends SyncedRow>(
  collection: RxCollection,
  config: PullConfig<Row>,
  events: PullEvents,
  options: StartPullOptions = {},
): RxReplicationState<Doc, Checkpoint> {
  const generic = config as unknown as PullConfig;
  const withSync = (row: SyncedRow): WithDeleted<Doc> =>
    ({ ...generic.toDoc(row), ...syncFields(SYNCED), sync_server: null, id: row.id, _deleted: row.deleted_at !== null }) as WithDeleted<Doc>;

  const fail = (failure: Failure): never => {
    events.onFailure(failure, generic);
    throw new PullError(failure.status, failure.message);
  };

  const prefetch = options.prefetch;

  /** The answer the worker kept for exactly this request, checked like a network answer. */
  async function keptAnswer<T>(url: string | null, schema: z.ZodType<T>): Promise<Result<T> | null> {
    if (!prefetch || !url) return null;
    const body = await prefetch.take(url);
    if (body === null) return null;
    try {
      const parsed = schema.safeParse(JSON.parse(body));
      return parsed.success ? { ok: true, status: 200, data: parsed.data } : null;
    } catch {
      return null;
    }
  }

  function recordNext(url: string | null): void {
    if (prefetch && url) prefetch.next(url);
  }

  const handler = async (checkpoint: Checkpoint | undefined, batchSize: number) => {
    if (generic.kind === 'single') {
      const url = prefetch ? requestUrl(generic.path) : null;
      const kept = await keptAnswer(url, generic.schema);
      // A kept copy older than what the replica holds is no answer: ask the server.
      const usable = kept?.ok && isAfter({ updated_at: kept.data.data.updated_at, id: kept.data.data.id }, checkpoint) ? kept : null;
      const result = usable ?? (await fetchOne(generic.path, generic.schema));
      if (!result.ok) return fail(result);
      const row = result.data.data;
      const next = { updated_at: row.updated_at, id: row.id };
      const fresh = isAfter(next, checkpoint);
      events.onSuccess(generic, true);
      recordNext(url);
      return { documents: fresh ? [withSync(row)] : [], checkpoint: fresh ? next : checkpoint };
    }
    const early = ahead?.key === pageKey(checkpoint, batchSize) ? ahead.answer : null;
    ahead = null;
    // An early answer that failed (offline a moment ago) is asked again now, so a failure is always current.
    const earlyResult = early ? await early : null;
    const result = earlyResult?.ok ? earlyResult : await requestPage(checkpoint, batchSize);
    if (!result.ok) return fail(result);
    const page = result.data;
    const next = page.meta.checkpoint ?? checkpoint;
    events.onSuccess(generic, !page.meta.has_more);
    if (page.meta.has_more && !stopped) askAhead(next, batchSize);
    if (prefetch) recordNext(requestUrl(withQuery(generic.path, pagedQuery(generic, next, batchSize))));
    const documents = page.data.map(withSync);
    pageLookup = lookUpLocal(documents.map((doc) => doc.id));
    return { documents, checkpoint: next };
  };

  type PageResult = Result<{ data: SyncedRow[]; meta: { has_more: boolean; checkpoint: Checkpoint | null } }>;
  const pageConfig = generic as PagedPullConfig<SyncedRow>;
  /** One page after `checkpoint`: the service worker's kept answer for exactly that request, else the server's. */
  async function requestPage(checkpoint: Checkpoint | undefined, batchSize: number, signal?: AbortSignal): Promise<PageResult> {
    const query = pagedQuery(pageConfig, checkpoint, batchSize);
    const kept = await keptAnswer(prefetch ? requestUrl(withQuery(pageConfig.path, query)) : null, pageConfig.schema);
    return kept ?? fetchPage(pageConfig.path, query, pageConfig.schema, signal);
  }

  /**
   * Pipelining (issue 13, initial sync). RxDB asks for the next page once this one has been through
   * the modifier, whose read of the stored copies (`lookUpLocal`) waits in IndexedDB behind the
   * writes of the pages before: on the 5,000-row calendar that left 30-150 ms between a page's
   * arrival and the next request, every page. So when a page says more are waiting, the next one is
   * asked for at once. The handler's next call takes it when it asks for exactly that checkpoint
   * and page size; any other call (a resync from an older checkpoint) drops it. A page asked early
   * is what the same request a moment later would answer, minus rows changed meanwhile, which the
   * checkpoint then brings in the page after. One page ahead at most; stopping aborts it.
   */
  let ahead: { key: string; answer: Promise<PageResult>; abort: AbortController } | null = null;
  let stopped = false;
  const pageKey = (checkpoint: Checkpoint | undefined, batchSize: number) => JSON.stringify([checkpoint?.updated_at, checkpoint?.id, batchSize]);
  function askAhead(checkpoint: Checkpoint | undefined, batchSize: number): void {
    const abort = new AbortController();
    const answer = requestPage(checkpoint, batchSize, abort.signal).catch(
      (error: unknown): PageResult => ({ ok: false, status: 0, message: error instanceof Error ? error.message : String(error) }),
    );
    ahead = { key: pageKey(checkpoint, batchSize), answer, abort };
  }

  /**
   * The stored copies of a page's documents, read in one storage call when the page arrives (RxDB
   * runs the modifier right after the handler, once per document): a read per document was one
   * IndexedDB transaction per document of an initial sync.
   */
  let pageLookup: { ids: ReadonlySet<string>; found: Promise<ReadonlyMap<string, RxDocument>> } | null = null;
  const lookUpLocal = (ids: string[]) => ({
    ids: new Set(ids),
    found: ids.length > 0 ? collection.findByIds(ids).exec() : Promise.resolve(new Map<string, RxDocument>()),
  });
  const stored = async (id: string): Promise<RxDocument | null> => {
    const lookup = pageLookup;
    if (lookup?.ids.has(id)) return (await lookup.found).get(id) ?? null;
    return collection.findOne(id).exec();
  };

  /** A pending or failed optimistic document stays; the server's copy waits in `sync_server`. */
  const modifier = async (incoming: WithDeleted<Doc>): Promise<WithDeleted<Doc>> => {
    const local = await stored(incoming.id);
    if (!local) return incoming;
    const current = local.toMutableJSON() as Doc & { sync_state?: string };
    if (current.sync_state === 'synced' || current.sync_state === undefined) return incoming;
    const { sync_server: _ignored, ...server } = incoming;
    const owned = (generic.serverFields ?? []).filter((field) => field in server).map((field) => [field, server[field]]);
    return { ...current, ...Object.fromEntries(owned), sync_server: server, _deleted: false } as WithDeleted<Doc>;
  };

  const replication = replicateRxCollection<Doc, Checkpoint>({
    replicationIdentifier: `hearth-pull:${config.identifier}`,
    collection: collection as unknown as RxCollection<Doc>,
    live: true,
    waitForLeadership: options.waitForLeadership ?? true,
    retryTime: options.retryTime ?? 10_000,
    autoStart: true,
    pull: {
      handler,
      modifier,
      batchSize: generic.kind === 'pages' ? (generic.perPage ?? DEFAULT_PER_PAGE) : DEFAULT_PER_PAGE,
    },
  });
  // The modifier's read and RxDB's write are not one step: a pulled copy the storage refused because
  // the document changed in between (../database/refused-pulls.ts; RxDB would drop it and move its
  // checkpoint past the row) is written again on the document as it is now.
  const stopWatching = onRefusedPull(collection.database.name, collection.name, (copy) => {
    void writeRefusedCopy(collection as unknown as RxCollection<Doc>, copy, generic.serverFields ?? []).catch(() => undefined);
  });
  replication.onCancel.push(stopWatching);
  replication.onCancel.push(() => {
    stopped = true;
    ahead?.abort.abort();
    ahead = null;
  });
  return replication;
}

/**
 * What the modifier decides, decided again on the stored document (../database/refused-pulls.ts):
 * a synced document takes the server's copy, a pending or failed one parks it (taking its
 * `serverFields`), a document gone since gets it back; never over a copy already newer than it.
 */
async function writeRefusedCopy(collection: RxCollection<Doc>, refused: Doc, serverFields: readonly string[]): Promise<void> {
  const pulled = (refused.sync_state === 'pending' || refused.sync_state === 'failed' ? refused.sync_server : refused) as Doc | null | undefined;
  if (!pulled) return;
  const deleted = pulled._deleted === true;
  // The server's copy as the modifier has it: its fields and sync fields, without RxDB's own.
  const server = Object.fromEntries(Object.entries(pulled).filter(([field]) => !field.startsWith('_') && field !== 'sync_server')) as Doc;
  const doc = await collection.findOne(refused.id).exec();
  if (!doc) {
    // Taken back since the modifier read it (a discarded change): the server's copy is what is left.
    if (!deleted) await collection.insert({ ...server, ...syncFields(SYNCED), sync_server: null, id: refused.id }).catch(() => undefined);
    return;
  }
  const newer = (copy: unknown) => String((copy as Doc | null | undefined)?.updated_at ?? '') > String(server.updated_at ?? '');
  await doc.incrementalModify((latest) => {
    const current = latest as Doc & { sync_state?: string };
    if (current.sync_state === 'synced' || current.sync_state === undefined) {
      if (newer(current)) return latest;
      return { ...server, ...syncFields(SYNCED), sync_server: null, id: refused.id, ...(deleted ? { _deleted: true } : {}) } as Doc;
    }
    if (newer(current.sync_server)) return latest;
    const owned = serverFields.filter((field) => field in server).map((field) => [field, server[field]]);
    return { ...latest, ...Object.fromEntries(owned), sync_server: { ...server, _deleted: deleted } };
  });
}
