/**
 * "The replica follows the session": opened at sign-in and at a start with a stored session,
 * closed at sign-out, its replication stopped when the server forgets the session (a 401 or 419
 * never wipes anything: ARCHITECTURE rule 4). Wired once by the composition root
 * (src/app/start-data.ts); importing this module starts nothing.
 */
import { sessionExpired } from '@/api/events';
import { getOrCreateDataKey } from '../crypto/key-vault';
import { keyDatabaseFor, ownerIdFor } from '../owner';
import { getStartingSession, onSessionChange } from '../session-store';
import type * as Lifecycles from './lifecycle';
import type { ReplicaOptions } from './lifecycle';

type Lifecycle = typeof Lifecycles;

/**
 * Starts following; returns the undo (what is open stays open). `beforeOpen` runs before each
 * opening and is waited for (the composition root wires the outbox there, so no write can reach an
 * outbox that is not yet this person's); its failure is logged and the replica opens anyway.
 */
export function followSession(options: ReplicaOptions = {}, beforeOpen?: () => Promise<unknown>): () => void {
  let following = true;
  let loaded: Lifecycle | null = null;
  const ready = (opening: boolean): Promise<unknown> =>
    opening && beforeOpen ? beforeOpen().catch((error: unknown) => console.error('The outbox could not be started', error)) : Promise.resolve();
  // Tasks reach the lifecycle in the order they were asked for: a sign-out right after a sign-in
  // closes what the sign-in opened, though only the opening waits for `beforeOpen`.
  let turn: Promise<unknown> = Promise.resolve();
  const withLifecycle = (task: (lifecycle: Lifecycle) => Promise<unknown>, opening = true): void => {
    if (!following) return;
    // Loaded on demand: RxDB stays out of the entry chunk.
    const start = Promise.all([import('./lifecycle'), ready(opening), turn]);
    turn = start.catch(() => undefined);
    void start
      .then(([lifecycle]) => {
        loaded = lifecycle;
        return task(lifecycle);
      })
      .catch((error: unknown) => console.error('The local replica could not be opened', error));
  };

  const stopChanges = onSessionChange((change) => {
    if (change.type === 'signed-in') withLifecycle((lifecycle) => lifecycle.openReplicaForAccount(change.account, change.site, options));
    else withLifecycle((lifecycle) => lifecycle.closeReplica(), false);
  });
  // Replication runs only in a replica opened here, so a lifecycle not loaded yet has nothing to stop
  // (and a 401 on the sign-in screen does not load RxDB).
  const stopExpiry = sessionExpired.subscribe(() => void loaded?.stopReplication());

  // App start with a session: open its replica (the account comes back from it, decrypted).
  const starting = getStartingSession();
  if (starting) {
    const { stub, migrating } = starting;
    if (!options.key) readKeyEarly(stub.site, stub.user_id);
    setTimeout(warmCollation, 0);
    withLifecycle((lifecycle) =>
      migrating
        ? lifecycle.openReplicaForAccount(migrating, stub.site, options)
        : lifecycle.openReplica(
            {
              userId: stub.user_id,
              site: stub.site,
              residentId: stub.resident_id,
              homeId: stub.home_id,
              homeIds: stub.home_id ? [stub.home_id] : [],
            },
            null,
            options,
          ),
    );
  }

  return () => {
    following = false;
    stopChanges();
    stopExpiry();
  };
}

/**
 * The person's data key, asked for before the replica's code has loaded (issue 13). Measured on an
 * offline start, reading it (an IndexedDB database of its own, then an RSA unwrap) took 80-100 ms,
 * most of it waiting behind the replica's own IndexedDB opens that start with it. Started here
 * (the vault is small and in the entry's chunk), it is read while the replica's chunk loads; the
 * replica's opening then gets the same read (the vault remembers it per page), and a logout wipe
 * waits for it before it destroys the key. A failure is the opening's to report: it asks again.
 */
function readKeyEarly(site: string | null, userId: string): void {
  void ownerIdFor(site, userId)
    .then((owner) => getOrCreateDataKey({ databaseName: keyDatabaseFor(owner) }))
    .catch(() => undefined);
}

/**
 * The replica's opening sorts each collection's schema with `localeCompare` (RxDB's
 * `normalizeRxJsonSchema`), and a page's first comparison loads ICU's collation: about 25 ms of a 4x
 * slower phone's main thread inside the first group of collections (CDP profile, warm dashboard).
 * Done in a task of its own while the replica's code and the key are still on their way, it is off
 * that task and off the first screen's path (issue 13).
 */
function warmCollation(): void {
  'a'.localeCompare('b');
}
