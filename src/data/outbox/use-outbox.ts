import { useEffect } from 'react';
import { useStore } from '../create-store';
import type { OutboxCounts } from './queue';
import { countsStore, refreshCounts } from './outbox';

/** Pending (including held) and failed counts of the outbox, live. */
export function useOutbox(): OutboxCounts {
  useEffect(() => {
    void refreshCounts();
  }, []);
  return useStore(countsStore);
}
