import type { RxStorage, RxStorageInstance, RxStorageInstanceCreationParams } from 'rxdb';

type Doc = Record<string, unknown>;

/**
 * `storage`, with `patch` run on every instance it creates, before anyone uses it: how this
 * folder's wrappers (keep-newest, refused-pulls, descending-queries) change what an
 * instance does. They replace its methods in place, as RxDB's own wrappers do: a proxy would loop
 * when a wrapper above replaces a method on the instance and calls the one it found.
 */
export function patchInstances<I, O>(
  storage: RxStorage<I, O>,
  patch: (instance: RxStorageInstance<Doc, I, O>, params: RxStorageInstanceCreationParams<Doc, O>) => void,
): RxStorage<I, O> {
  return {
    ...storage,
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      const instance = await storage.createStorageInstance(params);
      patch(instance as unknown as RxStorageInstance<Doc, I, O>, params as unknown as RxStorageInstanceCreationParams<Doc, O>);
      return instance;
    },
  };
}
