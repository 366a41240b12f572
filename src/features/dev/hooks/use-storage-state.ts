import { useEffect, useState } from 'react';
import { readPersistAnswer, type PersistAnswer } from '@/data/persistent-storage';

export interface StorageState {
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
  /** What the browser answered when Hearth asked after sign-in (null: not asked on this device yet). */
  asked: PersistAnswer | null;
}

/** navigator.storage: how much this device holds for Hearth, whether it is kept under pressure, and what Hearth was told when it asked. */
export function useStorageState(): StorageState {
  const [state, setState] = useState<StorageState>({ usage: null, quota: null, persisted: null, asked: readPersistAnswer() });
  useEffect(() => {
    let live = true;
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    void Promise.all([
      storage?.estimate?.().catch(() => null) ?? null,
      storage?.persisted?.().catch(() => null) ?? null,
    ]).then(([estimate, persisted]) => {
      if (live) setState({ usage: estimate?.usage ?? null, quota: estimate?.quota ?? null, persisted, asked: readPersistAnswer() });
    });
    return () => {
      live = false;
    };
  }, []);
  return state;
}
