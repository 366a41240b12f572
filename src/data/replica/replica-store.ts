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

export interface OpenReplica {
  readonly db: ReplicaDatabase;
  readonly name: string;
  readonly identity: ReplicaIdentity;
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
