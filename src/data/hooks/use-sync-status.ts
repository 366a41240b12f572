import { useStore } from '../create-store';
import { replicationStatus } from '../replication/sync-status';
import { useOnlineStatus } from '../use-online-status';

export interface SyncStatus {
  online: boolean;
  syncing: boolean;
  lastSyncedAt: string | null;
  error: string | null;
}

/** Online, pulling, when the replica last caught up, and the last failure that is not being offline. */
export function useSyncStatus(): SyncStatus {
  const online = useOnlineStatus();
  const { syncing, lastSyncedAt, error } = useStore(replicationStatus);
  return { online, syncing, lastSyncedAt, error };
}
