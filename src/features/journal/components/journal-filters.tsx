import { useId } from 'react';
import type { JournalFilters, SharingFilter } from '@/entries/hooks/journal-entries-query';

export interface ReactionOption {
  readonly value: string;
  readonly label: string;
}

/**
 * The reactions to offer: only those the young person has used, named from the emoji lookups
 * (in the lookups' order; a used reaction the lookups no longer have comes last, as itself).
 */
export function reactionOptions(used: readonly string[], emojis: readonly { id: string; emoji: string; name: string }[], chosen?: string): ReactionOption[] {
  const wanted = new Set(chosen ? [...used, chosen] : used);
  const named = emojis.filter((e) => wanted.has(e.emoji)).map((e) => ({ value: e.emoji, label: `${e.emoji} ${e.name}` }));
  const known = new Set(named.map((o) => o.value));
  const others = [...wanted].filter((r) => !known.has(r)).map((r) => ({ value: r, label: r }));
  return [...named, ...others];
}

export const isFiltering = (filters: JournalFilters): boolean => Boolean(filters.from || filters.to || filters.reaction || filters.sharing);

export interface JournalFiltersProps {
  readonly value: JournalFilters;
  readonly reactions: readonly ReactionOption[];
  /**
   * Whether the Feeling filter shows; default: when there are reactions to offer. While they load,
   * the page keeps its place if it was there last time (disabled, "Any feeling" only).
   */
  readonly feeling?: boolean;
  onChange(next: JournalFilters): void;
  /** Clears the filters and the search. */
  onClear(): void;
  /** Something to clear (a filter or a search). */
  readonly clearable: boolean;
}

/**
 * Filters of "My entries", applied on the device: a date range on the entry's date, a feeling
 * (reaction) and who can see it. Native labelled inputs and selects: keyboard and screen-reader
 * friendly, 48px tall, one column on a phone and a row on a wide screen (journal.css).
 */
export function JournalFiltersFields({ value, reactions, feeling = reactions.length > 0, onChange, onClear, clearable }: JournalFiltersProps) {
  const id = useId();
  const set = (patch: Partial<Record<keyof JournalFilters, string>>) => {
    const next: Record<string, string | undefined> = { ...value, ...patch };
    for (const key of Object.keys(next)) if (!next[key]) delete next[key];
    onChange(next as JournalFilters);
  };

  return (
    <fieldset className="journal-filters">
      <legend className="journal-filters__legend">Filter your entries</legend>
      <div className="journal-filters__fields">
        <div className="journal-filters__field">
          <label htmlFor={`${id}-from`} className="field__label">
            From
          </label>
          <input
            id={`${id}-from`}
            type="date"
            className="field__input"
            value={value.from ?? ''}
            max={value.to || undefined}
            onChange={(event) => set({ from: event.target.value })}
          />
        </div>
        <div className="journal-filters__field">
          <label htmlFor={`${id}-to`} className="field__label">
            To
          </label>
          <input
            id={`${id}-to`}
            type="date"
            className="field__input"
            value={value.to ?? ''}
            min={value.from || undefined}
            onChange={(event) => set({ to: event.target.value })}
          />
        </div>
        {feeling ? (
          <div className="journal-filters__field">
            <label htmlFor={`${id}-reaction`} className="field__label">
              Feeling
            </label>
            <select
              id={`${id}-reaction`}
              className="field__input"
              value={value.reaction ?? ''}
              disabled={reactions.length === 0}
              onChange={(event) => set({ reaction: event.target.value })}
            >
              <option value="">Any feeling</option>
              {reactions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="journal-filters__field">
          <label htmlFor={`${id}-sharing`} className="field__label">
            Who can see it
          </label>
          <select
            id={`${id}-sharing`}
            className="field__input"
            value={value.sharing ?? ''}
            onChange={(event) => set({ sharing: event.target.value as SharingFilter | '' })}
          >
            <option value="">All entries</option>
            <option value="shared">Shared with someone</option>
            <option value="private">Only me</option>
          </select>
        </div>
      </div>
      {clearable ? (
        <button type="button" className="button button--secondary journal-filters__clear" onClick={onClear}>
          Clear filters
        </button>
      ) : null}
    </fieldset>
  );
}
