import { Link } from 'react-router-dom';
import { ClosedBadge } from '@/entries/components/closed-badge';
import { useEntryFile } from '@/entries/hooks/use-entry-file';
import type { EmojiDoc, JournalDoc } from '@/data/replica/types';
import { FailedEntryActions } from '@/entries/components/failed-entry-actions';
import { longDate } from '@/lib/en-gb';

const EXCERPT_LENGTH = 200;

/** "Sunday, 1 March 2026 at 10:00" from the entry's local date and time. */
export function formatWhen(date: string, time: string): string {
  const parsed = new Date(`${date}T${time || '00:00'}`);
  if (Number.isNaN(parsed.getTime())) return `${date} ${time}`.trim();
  return `${longDate(parsed, { weekday: true, year: true })} at ${time}`;
}

function excerptOf(entry: JournalDoc): string {
  const text = (entry.description ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return entry.canvas ? 'A drawing' : entry.files.length > 0 ? 'Photos and files' : '';
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

function Thumbnail({ entry }: { entry: JournalDoc }) {
  const photo = entry.files.find((f) => f.mime.startsWith('image/'));
  const file = entry.canvas ?? photo ?? null;
  const url = useEntryFile(file?.id ?? null, 'journal');
  if (!file) return null;
  const alt = entry.canvas ? 'Your drawing' : 'Your photo';
  return url ? (
    <img className="journal-card__thumb" src={url} alt={alt} />
  ) : (
    <span className="journal-card__thumb journal-card__thumb--empty" role="img" aria-label={`${alt} (not on this device yet)`} />
  );
}

function SharedWith({ entry }: { entry: JournalDoc }) {
  const count = entry.shared_with.length + (entry.shared_with_management ? 1 : 0);
  if (count === 0) return <span className="badge journal-card__private">Private</span>;
  const who = entry.shared_with_management ? ' (including home management)' : '';
  return (
    <span className="badge">
      Shared with {count}
      {who ? <span className="visually-hidden">{who}</span> : null}
    </span>
  );
}

/** One entry in "My entries": when, the words (always as text), reaction, picture, sharing, closed, comments and state. */
export function JournalEntryCard({ entry, emojis }: { entry: JournalDoc; emojis: readonly EmojiDoc[] }) {
  const reactionName = entry.reaction ? (emojis.find((e) => e.emoji === entry.reaction || e.id === entry.reaction)?.name ?? 'Reaction') : null;
  const comments = entry.comments_count;
  return (
    <article className={`journal-card journal-card--${entry.sync_state}`} aria-labelledby={`entry-${entry.id}-when`}>
      <div className="journal-card__body">
        <h2 id={`entry-${entry.id}-when`} className="journal-card__when">
          {formatWhen(entry.entry_date, entry.entry_time)}
        </h2>
        <p className="journal-card__text">{excerptOf(entry)}</p>
        <div className="journal-card__meta">
          {entry.reaction ? (
            <span className="journal-card__reaction" role="img" aria-label={`Feeling: ${reactionName}`}>
              {entry.reaction}
            </span>
          ) : null}
          <SharedWith entry={entry} />
          {entry.locked_at ? <ClosedBadge /> : null}
          {entry.sync_state === 'pending' ? <span className="badge badge--pending">Waiting to send</span> : null}
          {entry.local_only ? null : (
            <Link to={`/entries/comments/${entry.id}`} className="journal-card__comments">
              {comments === 1 ? '1 comment' : `${comments} comments`}
            </Link>
          )}
        </div>
        {entry.sync_state === 'failed' ? <FailedEntryActions kind="journal" entry={entry} /> : null}
        {/* A closed conversation cannot be changed: no edit (the edit route says why if opened). */}
        {entry.locked_at ? null : (
          <Link to={`/journal/edit/${entry.id}`} className="button button--secondary journal-card__edit">
            Edit <span className="visually-hidden">the entry of {formatWhen(entry.entry_date, entry.entry_time)}</span>
          </Link>
        )}
      </div>
      <Thumbnail entry={entry} />
    </article>
  );
}
