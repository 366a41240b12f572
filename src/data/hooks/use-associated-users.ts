import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import type { StaffDoc } from '../replica/types';
import { associatedUsers$ } from './queries';
import { useLive, type Live } from './use-live';

const none: StaffDoc[] = [];

/** The staff of the young person's home, by last then first name (empty without home ids, SPEC §6). */
export function useAssociatedUsers(): Live<StaffDoc[]> {
  const factory = useCallback((open: OpenReplica) => associatedUsers$(open.db), []);
  return useLive('staff', factory, none, (list) => list.length === 0);
}
