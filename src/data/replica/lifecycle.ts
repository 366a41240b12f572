/**
 * Opening, closing and wiping the signed-in person's replica.
 *
 * One RxDB database per person: its name is derived from SHA-256(site + user id), so two young
 * people on a shared tablet never share (or even learn the name of) each other's replica. The data
 * key comes from the device key vault (getOrCreateDataKey) before anything is opened.
 *
 * Nothing here runs by itself: the composition root (src/app/start-data.ts) makes the replica
 * follow the session (./follow-session.ts) and puts the wipe in the logout steps. Options (tests:
 * fake-indexeddb, a key, no replication) are passed with each call.
 */
import type { Account } from '@/contract/users';
import { replicationContract } from '../contract-in-tasks';
import { createStore } from '../create-store';
import { getOrCreateDataKey, type DataKey } from '../crypto/key-vault';
import { keyDatabaseFor, ownerIdFor, rememberOwner, setActiveOwner } from '../owner';
import { createHearthDatabase, removeHearthDatabase, type HearthStorageOptions } from '../database/create-database';
import { importInTasks } from '@/lib/import-in-tasks';
import { yieldToMain } from '@/lib/yield-to-main';
import { prefetchLink, type PrefetchLink } from '../prefetch/page-link';
import type { ReplicationHandle, ReplicationOptions } from '../replication/controller';
import { afterFirstScreen, atOnce } from '../replication/start-when';
import { SIGN_IN_TURNS } from '../replication/in-turn';
import { patchStatus, resetStatus } from '../replication/sync-status';
import { restoreAccount } from '../session-store';
import { replicaCollections } from './collections';
import { changesSinceIn } from './changes-since';
import { replicaStore, type OpenReplica, type ReplicaIdentity } from './replica-store';
import { ACCOUNT_DOC_ID, SYNCED, syncFields, type AccountDoc } from './types';

export interface ReplicaOptions extends HearthStorageOptions {
  /** Default true in the browser (several tabs). Tests pass false. */
  readonly multiInstance?: boolean;
  /** Tests inject a key (or one still on its way); the app reads the device's key vault. */
  readonly key?: DataKey | Promise<DataKey>;
  /** Default true; false opens the replica without pulling (tests of local logic). */
  readonly replicate?: boolean;
  readonly replication?: ReplicationOptions;
}

/**
 * The running replication of this tab, as a store: it starts a moment after the replica is
 * published (its code loads on demand), so whoever needs it (an open comment thread) follows it.
 */
export const replicationStore = createStore<ReplicationHandle | null>(null);
let replication: ReplicationHandle | null = null;
function setReplication(next: ReplicationHandle | null): void {
  replication = next;
  replicationStore.set(next);
}
/** The open replica's store of answers the service worker pulled ahead (src/data/prefetch), with its key. */
let prefetch: PrefetchLink | undefined;
let lastName: string | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** Serialises open/close/wipe so they never interleave. */
function enqueue<T>(task: () => Promise<T>): Promise<T> {
  const next = queue.then(task, task);
  queue = next.catch(() => undefined);
  return next;
}

/** Cancels a warm start's replication still waiting for the first screen (see waitThenStart). */
let pendingStart: (() => void) | null = null;
function cancelPendingStart(): void {
  if (!pendingStart) return;
  pendingStart();
  pendingStart = null;
  patchStatus({ starting: false });
}

/**
 * Loads the replication's code and starts it on `open`. At a warm start (`inSteps`) the contract's
 * parsers load a module per task first (../contract-in-tasks.ts); a sign-in's screens wait for the
 * pulls, and its chunks may still come over the network, where one import after another would be
 * a round trip each: there the code loads in one go.
 */
async function startNow(open: OpenReplica, options: ReplicationOptions, inSteps = false): Promise<void> {
  try {
    if (inSteps) await importInTasks(replicationContract);
    const { startReplication } = await import('../replication/controller');
    // Setting up 17 replications is a stretch of its own, in the next task (issue 13: no long task
    // at start).
    await yieldToMain();
    setReplication(startReplication(open, options));
  } finally {
    // The replication has marked its pulls pending (or could not start): each collection says for itself now.
    patchStatus({ starting: false });
  }
}

/**
 * A warm start: the replication's code (RxDB's replication plugin, the pulls, the contract's
 * parsers) is loaded and started only once the first screen has shown what the replica holds
 * (`startWhen`, default after the first screen), so none of it competes with that screen (issue 13).
 * The wait is outside the queue, so nothing queued meanwhile is held up by it. A sign-out, a 401 or
 * another person's replica cancels it; the account the server sends back for this person leaves it
 * waiting (see `replicate` in openReplica).
 */
async function waitThenStart(open: OpenReplica, options: ReplicationOptions): Promise<void> {
  const { startWhen = afterFirstScreen, ...rest } = options;
  const start = { ...rest, startWhen: atOnce };
  let waiting = false;
  let due = false;
  let cancelled = false;
  const stopWaiting = startWhen(() => {
    if (cancelled) return;
    if (!waiting) {
      due = true; // at once (outside a page): in this turn of the queue
      return;
    }
    pendingStart = null;
    void enqueue(async () => {
      const now = replicaStore.get();
      // Defensive: whatever replaced this replica or started its replication cancelled the wait.
      if (now?.db !== open.db || replication) return;
      await startNow(now, start, true);
    }).catch((error: unknown) => console.error('The replication could not be started', error));
  });
  waiting = true;
  if (due) await startNow(open, start, true);
  else
    pendingStart = () => {
      cancelled = true;
      stopWaiting();
    };
}

/** The replica is named by its owner id (src/data/owner.ts): a hash, nothing personal. */
export const replicaNameFor = ownerIdFor;

export function identityOf(account: Account, site: string | null): ReplicaIdentity {
  return {
    userId: account.user.id,
    site,
    residentId: account.user.resident?.id ?? null,
    homeId: account.user.resident?.home_id ?? null,
    homeIds: Object.keys(account.permissions.homes),
  };
}

function accountDoc(account: Account): AccountDoc {
  return {
    id: ACCOUNT_DOC_ID,
    kind: 'account',
    user_id: account.user.id,
    updated_at: new Date().toISOString(),
    account,
    ...syncFields(SYNCED),
  };
}

/**
 * Opens (or keeps) the replica of `identity`; with `account`, stores it encrypted there; without,
 * reads it back from the replica and hands it to the session store (app start from the stub).
 * Starts replication unless told not to. Never waits on the network.
 */
export function openReplica(identity: ReplicaIdentity, account: Account | null, opts: ReplicaOptions = {}): Promise<OpenReplica> {
  return enqueue(async () => {
    const name = await replicaNameFor(identity.site, identity.userId);
    let current = replicaStore.get();
    if (current && current.name !== name) {
      await closeNow();
      current = null;
    }
    if (!current) {
      // Each person has their own data key: signing out destroys only theirs (src/data/owner.ts).
      // The key (an IndexedDB read and an RSA unwrap; at a first sign-in, a new RSA key pair) and the
      // database's own opening run side by side: each collection waits for the key only when it
      // needs it, after its IndexedDB store is open (issue 13).
      const keyReady = opts.key ? Promise.resolve(opts.key) : getOrCreateDataKey({ databaseName: keyDatabaseFor(name) }).then((vault) => vault.key);
      // A vault that fails is reported by the database's opening (which then closes it) and below.
      keyReady.catch(() => undefined);
      const db = await createHearthDatabase({
        name,
        key: keyReady,
        collections: replicaCollections,
        multiInstance: opts.multiInstance ?? true,
        ...(opts.indexedDB ? { indexedDB: opts.indexedDB } : {}),
        ...(opts.IDBKeyRange ? { IDBKeyRange: opts.IDBKeyRange } : {}),
      });
      const key = await keyReady;
      lastName = name;
      const factory = opts.indexedDB ?? globalThis.indexedDB;
      prefetch = factory ? prefetchLink({ factory, owner: name }, key) : undefined;
      // The outbox (page and service worker) now queues and replays for this person only. The
      // worker reads the active owner, so it is stored before the page asks the worker to replay.
      await setActiveOwner(name, opts.indexedDB ?? globalThis.indexedDB).catch(() => undefined);
      rememberOwner(name);
      current = { db, name, identity, changesSince: changesSinceIn(db) };
    }
    const previous = replicaStore.get();
    if (account) {
      await current.db.resident.upsert(accountDoc(account));
      current = { ...current, identity };
    } else {
      const stored = await current.db.resident.findOne(ACCOUNT_DOC_ID).exec().catch(() => null);
      const restored = stored?.get('account') as Account | undefined;
      if (restored && restored.user.id === identity.userId) {
        restoreAccount(restored);
        // The stub lacks the homes: take them from the stored account.
        current = { ...current, identity: { ...identityOf(restored, identity.site), ...pickKnown(identity) } };
      }
    }
    const identityChanged = JSON.stringify(previous?.identity) !== JSON.stringify(current.identity);
    // The same replica for the same person (the account the server sends back at a start): the same
    // object, so no screen reading the replica subscribes again and shows "Loading…" meanwhile.
    if (previous && previous.db === current.db && !identityChanged) current = previous;
    // A replication waiting for the first screen counts as running: the account the server sends back
    // at such a start (src/data/refresh-account.ts) must not start the pulls ahead of that screen.
    const replicate = opts.replicate !== false && ((!replication && !pendingStart) || replication?.stopped === true || identityChanged);
    if (replicate) cancelPendingStart();
    // Until the replication has started, an empty collection is one still to be pulled, not one
    // with nothing in it: the screens say "loading" meanwhile (and remember no empty shape).
    if (replicate) patchStatus({ starting: true });
    replicaStore.set(current);
    if (replicate) {
      try {
        const running = replication;
        setReplication(null);
        await running?.stop();
      } catch (error) {
        patchStatus({ starting: false });
        throw error;
      }
      // A sign-in's replica is empty and its screens wait for the pulls: at once, the first screen's
      // first (in turn, ../replication/in-turn.ts). A start from the stored session has data to show:
      // the screen reads first, and the replication's code loads only after it (waitThenStart).
      if (account) await startNow(current, { prefetch, startWhen: atOnce, inTurn: SIGN_IN_TURNS, ...opts.replication });
      else await waitThenStart(current, { prefetch, ...opts.replication });
    }
    return current;
  });
}

function pickKnown(identity: ReplicaIdentity): Partial<ReplicaIdentity> {
  const known: { -readonly [K in keyof ReplicaIdentity]?: ReplicaIdentity[K] } = {};
  if (identity.residentId) known.residentId = identity.residentId;
  if (identity.homeId) known.homeId = identity.homeId;
  if (identity.homeIds.length) known.homeIds = identity.homeIds;
  return known;
}

/** After sign-in: the account's replica, with the account stored encrypted in it. */
export function openReplicaForAccount(account: Account, site: string | null, options: ReplicaOptions = {}): Promise<OpenReplica> {
  return openReplica(identityOf(account, site), account, options);
}

/** The running replication of this tab (null when not replicating). */
export const getReplication = (): ReplicationHandle | null => replication;

async function closeNow(): Promise<void> {
  cancelPendingStart();
  const current = replicaStore.get();
  const running = replication;
  setReplication(null);
  prefetch = undefined;
  await running?.stop();
  replicaStore.set(null);
  await current?.db.close();
}

/** Stops replication and closes the replica; everything stays on the device. */
export function closeReplica(): Promise<void> {
  return enqueue(closeNow);
}

/** Stops pulling (a 401 or 419): the replica stays readable until the UI moves to sign-in. */
export function stopReplication(): Promise<void> {
  cancelPendingStart();
  const running = replication;
  setReplication(null);
  return running?.stop() ?? Promise.resolve();
}

/**
 * Sign-out: removes the replica (every collection, `files` included, and the replication
 * checkpoints: RxDB's database plus its Dexie IndexedDB databases). `name` defaults to the open
 * replica or the last one opened in this tab.
 */
export function wipeReplica(name?: string, opts: ReplicaOptions = {}): Promise<void> {
  return enqueue(async () => {
    const current = replicaStore.get();
    const target = name ?? current?.name ?? lastName;
    if (current && current.name === target) {
      cancelPendingStart();
      const running = replication;
      setReplication(null);
      prefetch = undefined;
      await running?.stop();
      replicaStore.set(null);
      await current.db.remove();
    } else if (target) {
      await removeHearthDatabase(target, {
        multiInstance: opts.multiInstance ?? true,
        ...(opts.indexedDB ? { indexedDB: opts.indexedDB } : {}),
        ...(opts.IDBKeyRange ? { IDBKeyRange: opts.IDBKeyRange } : {}),
      });
    }
    // RxDB's Dexie storage only empties its tables on remove: delete the (now empty) databases too.
    if (target) await deleteDexieDatabases(target, opts.indexedDB ?? globalThis.indexedDB);
    if (target === lastName) lastName = null;
    resetStatus(true);
  });
}

/** Deletes every IndexedDB database RxDB's Dexie storage made for replica `name` (where listable). */
async function deleteDexieDatabases(name: string, factory: IDBFactory | undefined): Promise<void> {
  if (!factory || typeof factory.databases !== 'function') return;
  const prefix = `rxdb-dexie-${name}--`;
  const all = await factory.databases().catch(() => []);
  await Promise.all(
    all
      .map((info) => info.name ?? '')
      .filter((dbName) => dbName.startsWith(prefix))
      .map(
        (dbName) =>
          new Promise<void>((resolve) => {
            const request = factory.deleteDatabase(dbName);
            request.onsuccess = () => resolve();
            request.onerror = () => resolve();
            request.onblocked = () => resolve();
          }),
      ),
  );
}
