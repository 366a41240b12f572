import { useEffect, useState } from 'react';

export interface StorageEstimateNow {
  /** Bytes this site uses on the device in all (IndexedDB, caches, the app itself). */
  readonly usage: number;
  readonly quota: number;
}

const canEstimate = (): boolean => typeof navigator !== 'undefined' && typeof navigator.storage?.estimate === 'function';

/**
 * `navigator.storage.estimate()` where the browser has it (null otherwise, or while asking), asked
 * again whenever `refresh` changes (after keeping or freeing). `asking` until the first answer (or
 * failure): the line that shows it keeps its place meanwhile.
 */
export function useStorageEstimate(refresh: unknown): { estimate: StorageEstimateNow | null; asking: boolean } {
  const [estimate, setEstimate] = useState<StorageEstimateNow | null>(null);
  const [asking, setAsking] = useState(canEstimate);
  useEffect(() => {
    let live = true;
    if (!canEstimate()) return;
    navigator.storage
      .estimate()
      .then((value) => {
        if (live && typeof value.usage === 'number' && typeof value.quota === 'number') setEstimate({ usage: value.usage, quota: value.quota });
      })
      .catch(() => undefined)
      .finally(() => {
        if (live) setAsking(false);
      });
    return () => {
      live = false;
    };
  }, [refresh]);
  return { estimate, asking };
}
