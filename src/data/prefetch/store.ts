/**
 * Pulling ahead on a push (issue 10), shared by the page and the service worker (no DOM, no zod,
 * no fetch: the worker hands its own `get`).
 *
 * The replica (RxDB) lives in the page; a worker woken by a push with no Hearth window on screen
 * cannot write to it. So each replication records, after every page it pulls, the request it will
 * make next (`next`: its checkpointed URL, the topics that re-pull it, and for a replication that
 * runs only while a screen is open, that screen's path). On a push the worker makes those requests
 * whose topics (or screen) the push names, with the person's session, and keeps each answer
 * (`pages`) under the replication it belongs to. When the app next starts, a replication about to
 * make exactly that request takes the kept answer instead (src/data/replication/pull.ts), so the
 * reply is in the replica even if the device is offline by then. A kept answer is used once, and
 * only for the very request it answers (same checkpoint): anything else is dropped unread.
 *
 * At rest: one IndexedDB database per owner (`<owner>-prefetch`, src/data/owner.ts). URLs, screens
 * and answers are sealed with the owner's data key (AES-256-GCM, bound to the replication and the
 * part); only the replication's identifier (ids, as the replica keeps in clear) and times are in clear. Signing out
 * deletes the database (src/data/wipe-steps.ts); without the key it is unreadable anyway.
 */
import { associatedData, openJson, sealJson } from '../crypto/field-cipher';
import type { DataKey } from '../crypto/key-vault';
import { prefetchDatabaseFor } from '../owner';

const COLLECTION = 'hearth-prefetch';
const NEXT = 'next';
const PAGES = 'pages';
/** Requests one push may make at most (each is one page of one replication). */
export const PREFETCH_LIMIT = 16;

/** Whose store, and the IndexedDB it lives in. */
export interface PrefetchPlace {
  readonly factory: IDBFactory;
  readonly owner: string;
}

/** The request a replication makes next, as the page recorded it. */
export interface NextPull {
  /** The replication's identifier (src/data/replication/endpoints.ts): `feedback`, `tasks:current:<id>`... */
  readonly identifier: string;
  /** Server topics that re-pull it. */
  readonly topics: readonly string[];
  /** For a replication that runs only while a screen shows (a comment thread): that screen's path. */
  readonly screen: string | null;
  /** The absolute URL of the request. */
  readonly url: string;
}

interface SealedRecord {
  id: string;
  sealed: string;
  at: number;
}

const aad = (identifier: string, part: 'next' | 'page') => associatedData({ collection: COLLECTION, documentId: identifier, field: part });
const context = (identifier: string, part: 'next' | 'page') => ({ collection: COLLECTION, documentId: identifier, field: part });

function seal(key: DataKey, identifier: string, part: 'next' | 'page', value: unknown): string {
  return sealJson(key, JSON.stringify(value), aad(identifier, part));
}
function open<T>(key: DataKey, identifier: string, part: 'next' | 'page', sealed: string): T {
  return JSON.parse(openJson(key, sealed, aad(identifier, part), context(identifier, part))) as T;
}

/**
 * One connection per store, kept open (every pull asks before it fetches, so opening per request
 * would cost more than the request's bookkeeping). It closes itself when the database is deleted
 * (sign-out) or upgraded elsewhere, and the next use opens a new one.
 */
const connections = new WeakMap<IDBFactory, Map<string, Promise<IDBDatabase>>>();

function openDatabase(place: PrefetchPlace): Promise<IDBDatabase> {
  let byName = connections.get(place.factory);
  if (!byName) connections.set(place.factory, (byName = new Map()));
  const name = prefetchDatabaseFor(place.owner);
  const cached = byName.get(name);
  if (cached) return cached;
  const forget = () => {
    if (byName.get(name) === opening) byName.delete(name);
  };
  const opening = new Promise<IDBDatabase>((resolve, reject) => {
    const request = place.factory.open(name, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(NEXT)) db.createObjectStore(NEXT, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(PAGES)) db.createObjectStore(PAGES, { keyPath: 'id' });
    };
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => {
        forget();
        db.close();
      };
      db.onclose = forget;
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
    request.onblocked = () => reject(new Error('IndexedDB open blocked'));
  });
  opening.catch(forget);
  byName.set(name, opening);
  return opening;
}

/** One transaction on one store; resolves when it has committed. */
async function run<T>(place: PrefetchPlace, store: string, mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest<T> | void): Promise<T | undefined> {
  const db = await openDatabase(place);
  return new Promise<T | undefined>((resolve, reject) => {
    const tx = db.transaction(store, mode);
    let result: T | undefined;
    const request = op(tx.objectStore(store));
    if (request) request.onsuccess = () => (result = request.result);
    tx.oncomplete = () => resolve(result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** The page, after each page it pulled: the request this replication makes next. */
export async function recordNextPull(place: PrefetchPlace, key: DataKey, pull: NextPull): Promise<void> {
  const record: SealedRecord = {
    id: pull.identifier,
    sealed: seal(key, pull.identifier, 'next', { url: pull.url, screen: pull.screen, topics: pull.topics }),
    at: Date.now(),
  };
  await run(place, NEXT, 'readwrite', (s) => s.put(record));
}

/** Every recorded request that can still be read with this key (others are skipped). */
export async function readNextPulls(place: PrefetchPlace, key: DataKey): Promise<NextPull[]> {
  const records = (await run<SealedRecord[]>(place, NEXT, 'readonly', (s) => s.getAll() as IDBRequest<SealedRecord[]>)) ?? [];
  const pulls: NextPull[] = [];
  for (const record of records) {
    try {
      const { url, screen, topics } = open<Omit<NextPull, 'identifier'>>(key, record.id, 'next', record.sealed);
      pulls.push({ identifier: record.id, topics, screen, url });
    } catch {
      // another key (an old record) or damaged: never used
    }
  }
  return pulls;
}

/** The worker: the answer to `url`, kept for replication `identifier` (replaces an older one). */
export async function storePrefetchedPage(place: PrefetchPlace, key: DataKey, identifier: string, url: string, body: string): Promise<void> {
  const record: SealedRecord = { id: identifier, sealed: seal(key, identifier, 'page', { url, body }), at: Date.now() };
  await run(place, PAGES, 'readwrite', (s) => s.put(record));
}

/**
 * The page, before a request: the kept answer to exactly this `url` for this replication, or null.
 * Whatever was kept for the replication is removed either way: an answer to another request (an
 * older checkpoint) can never be the right one again.
 */
export async function takePrefetchedPage(place: PrefetchPlace, key: DataKey, identifier: string, url: string): Promise<string | null> {
  // Read and remove in one transaction (the get is answered before the delete runs).
  const record = await run<SealedRecord | undefined>(place, PAGES, 'readwrite', (s) => {
    const request = s.get(identifier) as IDBRequest<SealedRecord | undefined>;
    s.delete(identifier);
    return request;
  });
  if (!record) return null;
  try {
    const page = open<{ url: string; body: string }>(key, identifier, 'page', record.sealed);
    return page.url === url ? page.body : null;
  } catch {
    return null;
  }
}

/** Every kept answer this key can read, by replication (the page reads them once per start). */
export async function readPrefetchedPages(place: PrefetchPlace, key: DataKey): Promise<Map<string, { url: string; body: string }>> {
  const records = (await run<SealedRecord[]>(place, PAGES, 'readonly', (s) => s.getAll() as IDBRequest<SealedRecord[]>)) ?? [];
  const pages = new Map<string, { url: string; body: string }>();
  for (const record of records) {
    try {
      pages.set(record.id, open<{ url: string; body: string }>(key, record.id, 'page', record.sealed));
    } catch {
      // another key or damaged: dropped when its replication next asks
      pages.set(record.id, { url: '', body: '' });
    }
  }
  return pages;
}

/** Removes the kept answer of one replication. */
export async function dropPrefetchedPage(place: PrefetchPlace, identifier: string): Promise<void> {
  await run(place, PAGES, 'readwrite', (s) => s.delete(identifier));
}

/** Sign-out: the whole store of this owner. */
export async function deletePrefetchStore(factory: IDBFactory, owner: string): Promise<void> {
  const name = prefetchDatabaseFor(owner);
  const cached = connections.get(factory)?.get(name);
  connections.get(factory)?.delete(name);
  (await cached?.catch(() => null))?.close();
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(prefetchDatabaseFor(owner));
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('IndexedDB delete failed'));
    request.onblocked = () => resolve(); // removed once the last connection closes
  });
}

/** What a push asks for (src/contract/push-notice.ts PushNotice). */
export interface PushWanted {
  /** null: every topic. */
  readonly topics: readonly string[] | null;
  /** The screen the push names (`named`), else null. */
  readonly screen: string | null;
}

/** The recorded requests a push calls for: by topic, and a screen's own replication only when the push names that screen. */
export function pullsFor(pulls: readonly NextPull[], wanted: PushWanted): NextPull[] {
  return pulls.filter((pull) =>
    pull.screen !== null ? wanted.screen === pull.screen : wanted.topics === null || pull.topics.some((topic) => wanted.topics!.includes(topic)),
  );
}

/** What the worker's `get` answers (a fetch Response is one). */
export interface PrefetchAnswer {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}

export interface PrefetchReport {
  /** Identifiers whose next page is now kept. */
  readonly kept: string[];
  /** Identifiers whose request failed (offline, 401 after sign-out elsewhere...): nothing kept. */
  readonly failed: string[];
}

/**
 * The worker on a push: makes the recorded requests the push calls for (at most PREFETCH_LIMIT, all
 * at once) and keeps every successful answer, sealed. Never throws for a failed request.
 */
export async function prefetchForPush(place: PrefetchPlace, key: DataKey, wanted: PushWanted, get: (url: string) => Promise<PrefetchAnswer>): Promise<PrefetchReport> {
  const chosen = pullsFor(await readNextPulls(place, key), wanted).slice(0, PREFETCH_LIMIT);
  const kept: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    chosen.map(async (pull) => {
      try {
        const answer = await get(pull.url);
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        await storePrefetchedPage(place, key, pull.identifier, pull.url, await answer.text());
        kept.push(pull.identifier);
      } catch {
        failed.push(pull.identifier);
      }
    }),
  );
  return { kept, failed };
}
