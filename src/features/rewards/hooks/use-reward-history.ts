import { useCallback } from 'react';
import { useLive, type Live } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import { exchange$, exchanges$ } from '@/data/replica/rewards';
import type { RewardExchangeDoc } from '@/data/replica/types';

const none: RewardExchangeDoc[] = [];

/** The reward history, newest first: the server's exchanges and this device's own (waiting, not sent). */
export function useRewardHistory(): Live<RewardExchangeDoc[]> {
  const factory = useCallback((open: OpenReplica) => exchanges$(open.db), []);
  return useLive('points', factory, none, (list) => list.length === 0);
}

/** One exchange (null: not in the replica). */
export function useExchange(id: string | null): Live<RewardExchangeDoc | null> {
  const factory = useCallback((open: OpenReplica) => exchange$(open.db, id ?? ''), [id]);
  return useLive('points', id ? factory : null, null, (item) => item === null);
}
