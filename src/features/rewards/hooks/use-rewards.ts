import { useCallback } from 'react';
import { useLive, type Live } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import { reward$, rewards$ } from '@/data/replica/rewards';
import type { RewardDoc } from '@/data/replica/types';

const none: RewardDoc[] = [];

/**
 * The home's rewards (catalogue order), live from the replica. `loading` while the replica opens
 * or its first pull runs with nothing to show.
 */
export function useRewards(): Live<RewardDoc[]> {
  const factory = useCallback((open: OpenReplica) => rewards$(open.db), []);
  return useLive('lookups', factory, none, (list) => list.length === 0);
}

/** One reward; null once loaded: not in the catalogue (unknown, paused or withdrawn). */
export function useReward(id: string): Live<RewardDoc | null> {
  const factory = useCallback((open: OpenReplica) => reward$(open.db, id), [id]);
  return useLive('lookups', id ? factory : null, null, (reward) => reward === null);
}
