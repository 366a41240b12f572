import { useCallback } from 'react';
import { useLive, type Live } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import { taskLogView$, type TaskLogView } from '@/data/replica/task-overlays';

const nothing: TaskLogView = { log: null, overlays: [], thread: [] };

/**
 * One objective with its thread (the server's comments and this device's own writes, by id, newest
 * first), live from the replica. `loading` while the replica opens or its first pull of the tasks
 * runs without having it; after that a missing log is "Objective not found".
 */
export function useTaskLog(logId: string | null): Live<TaskLogView> {
  const factory = useCallback((open: OpenReplica) => taskLogView$(open.db, logId ?? ''), [logId]);
  return useLive('tasks', logId ? factory : null, nothing, (view) => view.log === null);
}
