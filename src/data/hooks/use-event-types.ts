import { useCallback } from 'react';
import type { OpenReplica } from '../replica/replica-store';
import { eventTypes$ } from './queries';
import { useLive, type Live } from './use-live';

const none: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Event type names by id. */
export function useEventTypes(): Live<Record<string, string>> {
  const factory = useCallback((open: OpenReplica) => eventTypes$(open.db), []);
  return useLive('lookups', factory, none, (types) => Object.keys(types).length === 0);
}
