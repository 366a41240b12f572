/**
 * Whose data this is. On a shared tablet several young people may each have a replica, a data key
 * and an outbox; every one of them is named by an owner id (a hash of site and user id, nothing
 * personal), and the signed-in person's id is the "active owner" the service worker replays for.
 * A queued write can therefore never be sent under someone else's session, and signing out
 * destroys only that person's key. Used by the page and the service worker alike (no DOM here).
 */

const DEVICE_DATABASE = 'hearth-device';
const STORE = 'meta';
const ACTIVE_OWNER = 'active-owner';

/** `hearth-` and 24 hex characters of SHA-256 over site and user id; also the replica's name. */
export async function ownerIdFor(site: string | null, userId: string): Promise<string> {
  const bytes = new TextEncoder().encode(`hearth-replica:${site ?? ''}:${userId}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const hex = Array.from(digest.slice(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
  return `hearth-${hex}`;
}

export const keyDatabaseFor = (owner: string): string => `${owner}-keys`;
export const outboxDatabaseFor = (owner: string): string => `${owner}-outbox`;
/** What the service worker pulled ahead on a push (src/data/prefetch), sealed with the owner's key. */
export const prefetchDatabaseFor = (owner: string): string => `${owner}-prefetch`;

function openDevice(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(DEVICE_DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(factory: IDBFactory, mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDevice(factory);
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = run(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/** Set at sign-in (and at app start from the stored session), cleared at sign-out. */
export async function setActiveOwner(owner: string | null, factory: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  if (!factory) return;
  await withStore<unknown>(factory, 'readwrite', (store) => (owner ? store.put(owner, ACTIVE_OWNER) : store.delete(ACTIVE_OWNER)) as IDBRequest<unknown>);
}

export async function getActiveOwner(factory: IDBFactory | undefined = globalThis.indexedDB): Promise<string | null> {
  if (!factory) return null;
  const value = await withStore<unknown>(factory, 'readonly', (store) => store.get(ACTIVE_OWNER)).catch(() => null);
  return typeof value === 'string' ? value : null;
}

/** The signed-in person's owner id in this page (sync), and who wants to know when it changes. */
let current: string | null = null;
const listeners = new Set<(owner: string | null) => void>();

export function currentOwner(): string | null {
  return current;
}

export function rememberOwner(owner: string | null): void {
  if (owner === current) return;
  current = owner;
  for (const listener of listeners) listener(owner);
}

export function onOwnerChange(listener: (owner: string | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
