import { useEffect, useState } from 'react';

export interface StorageState {
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

/** navigator.storage: how much this device holds for Hearth, and whether it is kept under pressure. */
export function useStorageState(): StorageState {
  const [state, setState] = useState<StorageState>({ usage: null, quota: null, persisted: null });
  useEffect(() => {
    let live = true;
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    void Promise.all([
      storage?.estimate?.().catch(() => null) ?? null,
      storage?.persisted?.().catch(() => null) ?? null,
    ]).then(([estimate, persisted]) => {
      if (live) setState({ usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted });
    });
    return () => {
      live = false;
    };
  }, []);
  return state;
}
