import { Link } from 'react-router-dom';
import type { FeedbackDoc } from '@/data/replica';
import { PersonAvatar } from '@/components/person-avatar';
import { RelativeTime } from '@/components/relative-time';
import './feedback.css';

const MAX_COMMENT = 160;

const shorten = (text: string, max: number) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean;
};

/** Where the thread of a feedback item lives (SPEC §2: journal comments; voice comments). */
export const threadPath = (item: Pick<FeedbackDoc, 'type' | 'entry_id'>): string =>
  item.type === 'journal' ? `/entries/comments/${item.entry_id}` : `/voice/comments/${item.entry_id}`;

/**
 * One staff reply waiting for the young person: who, what they said, when, and the way to the thread.
 * Shared by the dashboard's "New replies" and the feedback page (SPEC §4's feedback items).
 */
export function FeedbackItem({ item }: { item: FeedbackDoc }) {
  const comment = item.latest_comment;
  const who = `${comment.creator.first_name} ${comment.creator.last_name}`.trim();
  const where = item.type === 'journal' ? 'your journal' : item.category ? `your voice: ${item.category.name}` : 'your voice';
  return (
    <li className={`reply reply--${item.type}`}>
      <PersonAvatar person={comment.creator} size={44} />
      <div className="reply__body">
        <p className="reply__meta">
          <strong className="reply__who">{who}</strong> replied to {where}
          <span aria-hidden="true"> · </span>
          <RelativeTime iso={comment.created_at} className="reply__when" />
        </p>
        {comment.comment ? <p className="reply__comment">“{shorten(comment.comment, MAX_COMMENT)}”</p> : null}
        {item.entry.excerpt ? (
          <p className="reply__entry">
            <span className="visually-hidden">You wrote: </span>
            {shorten(item.entry.excerpt, 80)}
          </p>
        ) : null}
        <p className="reply__actions">
          <Link to={threadPath(item)} className="reply__link">
            Read and reply<span className="visually-hidden"> to {who}</span>
          </Link>
          {item.count > 1 ? <span className="reply__count">{item.count} new comments</span> : null}
        </p>
      </div>
    </li>
  );
}
