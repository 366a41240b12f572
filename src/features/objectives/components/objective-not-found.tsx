import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { useLeaveWhenGone } from '@/components/use-leave-when-gone';
import { taskMessages } from '@/contract/tasks';

/**
 * SPEC §8 "Objective not found": a log id the replica does not have after its first pull. Opened
 * from a notification, it goes on to the dashboard instead (issue 10).
 */
export function ObjectiveNotFound() {
  useLeaveWhenGone(true);
  return (
    <EmptyState
      title={taskMessages.objectiveNotFound}
      actions={
        <Link to="/objectives" className="button button--primary">
          Back to objectives
        </Link>
      }
    >
      It may have been removed, or it is not on this device yet.
    </EmptyState>
  );
}
