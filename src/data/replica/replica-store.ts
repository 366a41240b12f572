import { createStore } from '../create-store';
import type { HearthDatabase } from '../database/create-database';
import type { replicaCollections } from './collections';

export type ReplicaDatabase = HearthDatabase<typeof replicaCollections>;

/** Whose replica is open: enough to name it and to know what to replicate. */
export interface ReplicaIdentity {
  readonly userId: string;
  readonly site: string | null;
  readonly residentId: string | null;
  /** The resident's home (rota); null until known. */
  readonly homeId: string | null;
  /** permissions.homes keys (SPEC §6: the staff list loads only when there are some). */
  readonly homeIds: readonly string[];
}

/** Where a reader of a collection's changes got to: RxDB's `_meta.lwt` of the last document read, and its id. */
export interface ChangeCheckpoint {
  readonly id: string;
  readonly lwt: number;
}

/**
 * The documents of a collection written since `checkpoint` (all of them without one), deleted ones
 * included, in the order written, decrypted, at most `limit`: for what is kept beside the documents
 * (src/entries/data/journal-reactions.ts).
 */
export type ChangesSince = (
  collection: keyof typeof replicaCollections,
  limit: number,
  checkpoint: ChangeCheckpoint | null,
) => Promise<readonly Record<string, unknown>[]>;

export interface OpenReplica {
  readonly db: ReplicaDatabase;
  readonly name: string;
  readonly identity: ReplicaIdentity;
  /** RxDB's changes-since read, handed out with the replica so that pages never import RxDB (it loads with the replica's chunk). */
  readonly changesSince: ChangesSince;
}

/** The open replica (null before sign-in, while opening, after sign-out). Hooks subscribe to it. */
export const replicaStore = createStore<OpenReplica | null>(null);

export const getReplica = (): OpenReplica | null => replicaStore.get();

/** Resolves with the open replica, waiting for one to open. */
export function whenReplicaOpen(): Promise<OpenReplica> {
  const current = replicaStore.get();
  if (current) return Promise.resolve(current);
  return new Promise((resolve) => {
    const stop = replicaStore.subscribe(() => {
      const next = replicaStore.get();
      if (next) {
        stop();
        resolve(next);
      }
    });
  });
}

/**
 * Resolves with the open replica, waiting at most `timeoutMs` for one to open (null after that).
 * Writes use it: just after a page load the session is known but its replica is still opening.
 */
export function whenReplicaOpenWithin(timeoutMs: number): Promise<OpenReplica | null> {
  const current = replicaStore.get();
  if (current) return Promise.resolve(current);
  return new Promise((resolve) => {
    const finish = (open: OpenReplica | null) => {
      clearTimeout(timer);
      stop();
      resolve(open);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const stop = replicaStore.subscribe(() => {
      const next = replicaStore.get();
      if (next) finish(next);
    });
  });
}
