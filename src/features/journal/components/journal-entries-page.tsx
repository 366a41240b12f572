import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { TextField } from '@/components/text-field';
import { useEmojis, useJournalEntries } from '@/data/hooks';
import { markIndexVisited } from '@/data/index-visited';
import { JournalEntryCard } from './journal-entry-card';
import './journal.css';

export const PAGE_SIZE = 20;
export const SEARCH_DELAY_MS = 300;

/** /journal/entries: the person's entries, newest first, searched as they type; unsent ones say so. */
export function JournalEntriesPage() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState(PAGE_SIZE);
  const entries = useJournalEntries({ search, limit });
  const emojis = useEmojis();
  const { items, hasMore } = entries.data;

  useEffect(() => markIndexVisited('journal'), []);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setLimit(PAGE_SIZE);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  return (
    <div className="page journal">
      <PageHeading>Journal entries</PageHeading>
      <nav className="actions journal__links" aria-label="Journal">
        <Link to="/journal" className="button button--primary">
          Write an entry
        </Link>
      </nav>
      <div role="search" className="journal__search">
        <TextField label="Search your entries" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
      </div>

      {entries.loading && items.length === 0 ? <LoadingText /> : null}
      {!entries.loading && items.length === 0 ? (
        search ? (
          <p role="status">No entries match “{search}”.</p>
        ) : (
          <EmptyState
            title="No entries yet."
            actions={
              <Link to="/journal" className="button button--primary">
                Write your first entry
              </Link>
            }
          >
            When you write in your journal, your entries will be listed here, newest first.
          </EmptyState>
        )
      ) : null}

      {items.length > 0 ? (
        <ul className="journal__list" aria-label="Journal entries">
          {items.map((entry) => (
            <li key={entry.id}>
              <JournalEntryCard entry={entry} emojis={emojis.data} />
            </li>
          ))}
        </ul>
      ) : null}

      {hasMore ? (
        <div className="actions">
          <button type="button" className="button button--secondary" onClick={() => setLimit((n) => n + PAGE_SIZE)}>
            Load more
          </button>
        </div>
      ) : null}
    </div>
  );
}
