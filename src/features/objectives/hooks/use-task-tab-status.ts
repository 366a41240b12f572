import type { TaskLogStatus } from '@/contract/tasks';
import { useStore } from '@/data/create-store';
import { replicationStatus } from '@/data/replication/sync-status';
import { taskTabKey } from '@/data/replication/endpoints';

/**
 * Whether a tab's list could not be fetched in this start, not even once (offline or the server
 * failing): with nothing of that tab in the replica, the screen says SPEC §8's "Failed to fetch
 * current tasks" / "Failed to fetch completed tasks".
 */
export function useTaskTabFailed(status: TaskLogStatus): boolean {
  const pull = useStore(replicationStatus).pulls.get(taskTabKey(status));
  return Boolean(pull?.failed && !pull.caughtUp);
}
