import { useEffect, useState } from 'react';

export interface StorageEstimateNow {
  /** Bytes this site uses on the device in all (IndexedDB, caches, the app itself). */
  readonly usage: number;
  readonly quota: number;
}

/**
 * `navigator.storage.estimate()` where the browser has it (null otherwise, or while asking), asked
 * again whenever `refresh` changes (after keeping or freeing).
 */
export function useStorageEstimate(refresh: unknown): StorageEstimateNow | null {
  const [estimate, setEstimate] = useState<StorageEstimateNow | null>(null);
  useEffect(() => {
    let live = true;
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    void (storage?.estimate?.() ?? Promise.resolve(null))
      .then((value) => {
        if (live && value && typeof value.usage === 'number' && typeof value.quota === 'number') setEstimate({ usage: value.usage, quota: value.quota });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [refresh]);
  return estimate;
}
