import { useCallback } from 'react';
import { combineLatest, map } from 'rxjs';
import type { TaskLogStatus } from '@/contract/tasks';
import { useLive, type Live } from '@/data/hooks/use-live';
import type { OpenReplica } from '@/data/replica/replica-store';
import { taskOverlays$, threadOf, type ThreadComment } from '@/data/replica/task-overlays';
import type { TaskCommentOverlayDoc, TaskLogDoc } from '@/data/replica/types';

/** One objective as the lists show it. */
export interface TaskLogItem {
  readonly log: TaskLogDoc;
  /** The thread as the objective's page shows it (server comments and this device's own writes). */
  readonly thread: readonly ThreadComment[];
  /** This device's comments or review on it waiting to be sent. */
  readonly waiting: number;
  /** This device's writes on it the server refused. */
  readonly failed: number;
  /** Reviewed: on the server, or by a review of this device on its way. */
  readonly reviewed: boolean;
}

export function itemOf(log: TaskLogDoc, overlays: readonly TaskCommentOverlayDoc[]): TaskLogItem {
  const own = overlays.filter((overlay) => overlay.task_log_id === log.id);
  return {
    log,
    thread: threadOf(log, own),
    waiting: own.filter((overlay) => overlay.sync_state === 'pending').length,
    failed: own.filter((overlay) => overlay.sync_state === 'failed').length,
    reviewed: log.reviewed || own.some((overlay) => overlay.is_review && overlay.sync_state !== 'failed'),
  };
}

const none: TaskLogItem[] = [];

/**
 * The objectives of one tab (SPEC §4: current 0, completed 1), newest task date first, read from
 * the replica (works offline); `category` keeps only one form's (the category page).
 */
export function useTaskLogs(status: TaskLogStatus, category?: string): Live<TaskLogItem[]> {
  const factory = useCallback(
    (open: OpenReplica) =>
      combineLatest([
        open.db.tasks.find({ selector: { kind: 'log', status }, sort: [{ sort_key: 'desc' }] }).$.pipe(map((docs) => docs.map((doc) => doc.toJSON() as unknown as TaskLogDoc))),
        taskOverlays$(open.db),
      ]).pipe(
        map(([logs, overlays]) =>
          logs.filter((log) => category === undefined || log.task.form.name === category).map((log) => itemOf(log, overlays)),
        ),
      ),
    [status, category],
  );
  return useLive('tasks', factory, none, (items) => items.length === 0);
}
