import { Link } from 'react-router-dom';
import { entryMessages } from '@/contract/entry-messages';
import { EmptyState } from '@/components/empty-state';

export interface LockedEntryNoticeProps {
  /** The entry's conversation (its comments stay readable). */
  readonly conversationTo: string;
  readonly backTo: string;
  readonly backLabel: string;
}

/**
 * Instead of the edit form of an entry whose conversation staff closed (locked_at set): the
 * server would refuse the change, so the person is told why before writing anything.
 */
export function LockedEntryNotice({ conversationTo, backTo, backLabel }: LockedEntryNoticeProps) {
  return (
    <EmptyState
      title="This entry can’t be changed."
      actions={
        <>
          <Link to={conversationTo} className="button button--primary">
            See the conversation
          </Link>
          <Link to={backTo} className="button button--secondary">
            {backLabel}
          </Link>
        </>
      }
    >
      {entryMessages.locked}
    </EmptyState>
  );
}
