import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { LoadingText } from '@/components/loading-text';
import { PageHeading } from '@/components/page-heading';
import { TextField } from '@/components/text-field';
import { useHeldHeight, useHeldPresence } from '@/components/use-held-layout';
import { useEmojis, useJournalEntries, useJournalReactions } from '@/entries/hooks/use-entries';
import type { JournalFilters } from '@/entries/hooks/journal-entries-query';
import { markIndexVisited } from '@/data/index-visited';
import { JournalEntryCard } from './journal-entry-card';
import { JournalSubmitted } from './journal-submitted';
import { isFiltering, JournalFiltersFields, reactionOptions } from './journal-filters';
import './journal.css';

export const PAGE_SIZE = 20;
export const SEARCH_DELAY_MS = 300;

const NO_FILTERS: JournalFilters = {};

/** What an empty result says, in plain words. */
export function noMatchText(search: string, filtering: boolean): string {
  if (search && filtering) return `No entries match “${search}” with these filters.`;
  if (search) return `No entries match “${search}”.`;
  return 'No entries match these filters.';
}

/**
 * /journal/entries: the person's entries, newest first, searched as they type and filtered by
 * date, feeling and who can see them, all on the device (works offline); unsent ones say so.
 */
export function JournalEntriesPage() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<JournalFilters>(NO_FILTERS);
  const [limit, setLimit] = useState(PAGE_SIZE);
  const entries = useJournalEntries({ search, limit, filters });
  const emojis = useEmojis();
  // The feeling filter's choices read every entry: asked for once the first page is shown, and from
  // then on for good. A filter or search change makes the list load again; dropping the choices then
  // emptied the Feeling select under a keyboard user's arrow keys (e2e journal-list-closed, under load).
  const [firstPageShown, setFirstPageShown] = useState(false);
  if (!firstPageShown && !entries.loading) setFirstPageShown(true);
  const used = useJournalReactions(firstPageShown);
  const { items, hasMore } = entries.data;
  const filtering = isFiltering(filters);
  // While the replica opens, the filters keep their Feeling if it was there last time (it shows once
  // the reactions are known), and the list the height it had: nothing jumps when the entries arrive (issue 13).
  const reactions = reactionOptions(used.data, emojis.data, filters.reaction);
  const feeling = useHeldPresence('journal.feeling', used.loading || emojis.loading, reactions.length > 0);
  const listLoading = entries.loading && items.length === 0;
  const heldList = useHeldHeight('journal.list', listLoading);

  useEffect(() => markIndexVisited('journal'), []);

  // Only a search that really changed starts again from the first page: a page the person loaded
  // just after opening the list (before the first pause ran out) stays loaded.
  useEffect(() => {
    const next = typed.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setLimit(PAGE_SIZE);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, search]);

  const changeFilters = (next: JournalFilters) => {
    setFilters(next);
    setLimit(PAGE_SIZE);
  };
  const searchRef = useRef<HTMLInputElement>(null);
  const clear = () => {
    setTyped('');
    setSearch('');
    changeFilters(NO_FILTERS);
    // The button goes away once everything is clear: keyboard focus goes to the search, not the page.
    searchRef.current?.focus();
  };

  return (
    <div className="page journal">
      <PageHeading>Journal entries</PageHeading>
      <JournalSubmitted />
      <nav className="actions journal__links" aria-label="Journal">
        <Link to="/journal" className="button button--primary">
          Write an entry
        </Link>
      </nav>
      <div role="search" aria-label="Search and filter your entries" className="journal__search">
        <TextField ref={searchRef} label="Search your entries" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
        <JournalFiltersFields
          value={filters}
          reactions={reactions}
          feeling={feeling}
          onChange={changeFilters}
          onClear={clear}
          clearable={filtering || typed.trim() !== ''}
        />
      </div>

      <div ref={heldList.ref} style={heldList.style} className="journal__results">
        {listLoading ? <LoadingText /> : null}
        {!entries.loading && items.length === 0 ? (
          search || filtering ? (
            <p role="status" className="journal__no-match">
              {noMatchText(search, filtering)}
            </p>
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
    </div>
  );
}
