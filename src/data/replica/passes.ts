import type { ReplicaDatabase } from './replica-store';

/**
 * Background passes over one replica that never overlap (the documents keeper, the cached-files
 * sweep): asking while a pass runs asks for one more after it, however many times it is asked, and
 * every caller's promise is that run's. A pass that fails is logged, not thrown, unless the replica
 * was closing (sign-out, a test closes its collections before it says so). Nothing starts until asked.
 */
export interface Passes {
  /** Runs a pass (or one more after the running one). Never rejects. */
  request(db: ReplicaDatabase): Promise<void>;
  /** Resolves when no pass is running for this replica. */
  idle(db: ReplicaDatabase): Promise<void>;
}

export function replicaPasses(options: {
  /** One pass. */
  run(db: ReplicaDatabase): Promise<unknown>;
  /** Waited for before each pass (e.g. the pulls going quiet). */
  before?(): Promise<void>;
  /** Whether the collection the pass works on is closed (a failure then is the replica closing). */
  closed(db: ReplicaDatabase): boolean;
  /** What the console says when a pass fails. */
  failure: string;
}): Passes {
  const running = new WeakMap<ReplicaDatabase, { current: Promise<void>; again: boolean }>();
  return {
    request(db) {
      const now = running.get(db);
      if (now) {
        now.again = true;
        return now.current;
      }
      const entry = { current: Promise.resolve(), again: false };
      entry.current = (async () => {
        try {
          do {
            await options.before?.();
            entry.again = false;
            if (db.closed) break;
            await options.run(db).catch((error: unknown) => {
              if (!db.closed && !options.closed(db)) console.error(options.failure, error);
            });
          } while (entry.again && !db.closed);
        } finally {
          running.delete(db);
        }
      })();
      running.set(db, entry);
      return entry.current;
    },
    async idle(db) {
      for (let now = running.get(db); now; now = running.get(db)) await now.current;
    },
  };
}
