import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { useWaitAtMost } from '@/components/use-held-layout';
import { useLeaveWhenGone } from '@/components/use-leave-when-gone';
import { messages } from '@/contract/messages';
import type { Live } from '@/data/hooks/use-live';
import type { EntryDoc } from '@/data/replica/types';
import { useComments } from '../hooks/use-comments';
import { useEmojis } from '../hooks/use-entries';
import { CommentThread, type CommentThreadProps } from './comment-thread';

export interface EntryThreadPageProps {
  readonly entryType: CommentThreadProps['entryType'];
  /** The entry as the feature reads it (each kind has its own query). */
  readonly entry: Live<EntryDoc | null>;
  readonly heading: string;
  /** Where "back" goes, and its words, for both the missing-entry state and the footer link. */
  readonly backTo: string;
  readonly backLabel: string;
  readonly post: CommentThreadProps['post'];
  readonly update: CommentThreadProps['update'];
}

/**
 * One thread page for journal and voice: an entry and the comments on it. The feature supplies what
 * differs. An entry that is not on the device, opened from a notification, goes on to the dashboard.
 */
export function EntryThreadPage({ entryType, entry, heading, backTo, backLabel, post, update }: EntryThreadPageProps) {
  useLeaveWhenGone(!entry.loading && !entry.data);
  const comments = useComments(entryType, entry.data?.id ?? null);
  const emojis = useEmojis();
  // What comes under the comments waits for them (staff's replies pushed the reply form and the way
  // back down the screen as they arrived), and for the emojis: the reply form's row of them,
  // pulled on a first visit, pushed the file picker down as it filled.
  // An entry the server counted no comments on has none to wait for: the form shows at once.
  const expectsComments = (entry.data?.comments_count ?? 0) > 0;
  const commentsComing = useWaitAtMost((expectsComments && comments.loading && comments.data.length === 0) || emojis.loading);
  return (
    <div className="page page--prose">
      <PageHeading>{heading}</PageHeading>
      {entry.loading ? <LoadingText /> : null}
      {!entry.loading && !entry.data ? (
        <EmptyState
          title="We can’t show this entry."
          actions={
            <Link to={backTo} className="button button--primary">
              {backLabel}
            </Link>
          }
        >
          {messages.voiceMissingData}
        </EmptyState>
      ) : null}
      {entry.data ? <CommentThread entryType={entryType} entry={entry.data} comments={comments} emojis={emojis.data} showReply={!commentsComing} post={post} update={update} /> : null}
      {/* With the thread, not before it: the thread arriving above it pushed it off the screen. */}
      {entry.loading || (entry.data && commentsComing) ? null : (
        <p>
          <Link to={backTo}>{backLabel}</Link>
        </p>
      )}
    </div>
  );
}
