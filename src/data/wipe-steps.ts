/**
 * The steps of the SPEC §4 sign-out wipe, one per kind of stored data. The composition root
 * (src/app/start-data.ts) puts them in their one order; each may be retried alone and none
 * depends on another having succeeded (a failing step does not stop the rest).
 *
 * Each step loads what it wipes with when it runs (RxDB, the outbox, the key vault, the store of
 * what was pulled ahead): the composition root installs this list at every start, also on the login
 * screen, whose entry chunk stays free of them (issue 13).
 */
import { currentOwner, getActiveOwner, keyDatabaseFor, ownerIdFor, rememberOwner, setActiveOwner } from './owner';
import type { ReplicaOptions } from './replica/lifecycle';
import type { WipeContext, WipeStep } from './sign-out';

/** The replica (every collection, files included, and its replication checkpoints). */
export function wipeReplicaStep(options: ReplicaOptions = {}): WipeStep {
  return {
    name: 'replica',
    async run({ userId, site }) {
      if (!options.indexedDB && typeof indexedDB === 'undefined') return; // no replica can exist here
      // Loaded on demand: RxDB stays out of the entry chunk.
      const { replicaNameFor, wipeReplica } = await import('./replica/lifecycle');
      await wipeReplica(userId ? await replicaNameFor(site, userId) : undefined, options);
    },
  };
}

/** The browser side of the push subscription (the server side is removed before logout, online). */
export const dropPushSubscriptionStep: WipeStep = {
  name: 'push subscription',
  async run() {
    const container = globalThis.navigator?.serviceWorker;
    if (!container) return;
    const registration = await container.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    await subscription?.unsubscribe();
  },
};

/** The person's outbox: the whole queue and its database. */
export const wipeOutboxStep: WipeStep = {
  name: 'outbox',
  async run() {
    const { getOutboxConfig, wipeOutbox } = await import('./outbox/outbox');
    if (!getOutboxConfig().indexedDB && typeof indexedDB === 'undefined') return; // no outbox can exist here
    await wipeOutbox();
  },
};

/** What the service worker pulled ahead on pushes for this person (src/data/prefetch; sealed, but theirs). */
export const wipePrefetchStep: WipeStep = {
  name: 'pulled ahead',
  async run(context) {
    if (typeof indexedDB === 'undefined') return; // nothing can exist here
    const owner = await ownerOf(context);
    if (owner) await (await import('./prefetch/store')).deletePrefetchStore(indexedDB, owner);
  },
};

/** CacheStorage caches that may hold personal data: everything but the app shell's precache. */
export const deletePersonalCachesStep: WipeStep = {
  name: 'personal caches',
  async run() {
    if (typeof caches === 'undefined') return;
    const names = await caches.keys();
    await Promise.all(names.filter((name) => !name.includes('precache')).map((name) => caches.delete(name)));
  },
};

async function ownerOf(context: WipeContext): Promise<string | null> {
  return context.userId ? ownerIdFor(context.site, context.userId) : currentOwner();
}

/** This person's data key (other people's replicas on a shared device keep theirs: src/data/owner.ts). */
export const destroyDataKeyStep: WipeStep = {
  name: 'data key',
  async run(context) {
    const owner = await ownerOf(context);
    if (owner) await (await import('./crypto/key-vault')).destroyKeys({ databaseName: keyDatabaseFor(owner) });
  },
};

/** Nobody is this device's active owner any more: the worker replays for no one. */
export const forgetActiveOwnerStep: WipeStep = {
  name: 'active owner',
  async run(context) {
    // A wipe finished at a later start (src/data/sign-out.ts): whoever signed in since keeps theirs.
    const owner = context.userId ? await ownerIdFor(context.site, context.userId) : null;
    const active = currentOwner() ?? (await getActiveOwner());
    if (owner && active && active !== owner) return;
    try {
      await setActiveOwner(null);
    } finally {
      rememberOwner(null);
    }
  },
};
