import { useEffect, useState } from 'react';

/**
 * "Load more" under a list shown a page at a time. It asks for the next page and, once that page is
 * on screen, moves the keyboard focus to the first item it brought (the button itself may be gone
 * by then, after the last page). Each item's element has the id `${idPrefix}${item.id}` and
 * tabIndex -1. Stays mounted while the list is shown, so the focus still moves after the last page.
 */
export function LoadMore({
  items,
  hasMore,
  waiting,
  onMore,
  idPrefix,
  className,
}: {
  items: readonly { readonly id: string }[];
  hasMore: boolean;
  /** The bigger page is on its way: the button says so and does nothing. */
  waiting: boolean;
  onMore: () => void;
  idPrefix: string;
  className: string;
}) {
  const [focusAt, setFocusAt] = useState<number | null>(null);
  const target = focusAt !== null ? items[focusAt]?.id : undefined;
  useEffect(() => {
    if (!target) return;
    document.getElementById(`${idPrefix}${target}`)?.focus();
    setFocusAt(null);
  }, [target, idPrefix]);

  if (!hasMore) return null;
  return (
    <div className={className}>
      <button
        type="button"
        className="button button--secondary"
        aria-disabled={waiting || undefined}
        onClick={() => {
          if (waiting) return;
          setFocusAt(items.length);
          onMore();
        }}
      >
        {waiting ? 'Loading…' : 'Load more'}
      </button>
    </div>
  );
}
